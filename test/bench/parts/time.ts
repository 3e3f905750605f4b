/** The `time` part: navigation to a usable page, against its floor, 1× and 4× CPU (Chromium). */
import { kb } from '../bytes';
import { fixed, heading, table, verdict } from '../output';
import { BUDGETS, SETTINGS } from '../settings';
import { timeToUsable, type BenchPage, type TimeResult } from '../time-to-usable';

export async function time(all: Record<string, BenchPage>) {
  const results = await timeToUsable(
    [all.login!, all.loginFloor!, all.loginMinimalFloor!, all.header!, all.headerFloor!],
    SETTINGS.runs,
  );
  const median = (page: string | null, throttle: number) =>
    results.find((f) => f.page === page && f.throttle === throttle)?.ms.median;
  const rows = results.map((r: TimeResult) => {
    const floor = median(r.floor, r.throttle);
    const reference = median(r.reference, r.throttle);
    return {
      ...r,
      ratio: floor ? r.ms.median / floor : null,
      referenceRatio: reference ? r.ms.median / reference : null,
    };
  });
  heading(`Time to usable (ms since navigation, ${SETTINGS.runs} cold loads each, median/min/max)`);
  console.log(
    'Usable: the sign-in pages when the password field has a layout box; the header pages when the\n' +
      "signed-in user's initials do. The header floor asks the server the same four questions\n" +
      '(discovery, session check, token exchange, user info) and renders the initials with React alone.\n' +
      'The login floor renders the very form <acct-login team="acme"> shows, with the same markup and\n' +
      'stylesheet, with React alone; the minimal login floor (a smaller, unstyled form) was the floor of\n' +
      'earlier runs and is kept for reference only.\n',
  );
  table(
    [
      'page',
      'CPU',
      'median',
      'min',
      'max',
      '÷ floor (median)',
      '÷ minimal floor',
      'JS heap after load',
      'budget',
    ],
    rows.map((r) => [
      r.page,
      `${r.throttle}×`,
      fixed(r.ms.median),
      fixed(r.ms.min),
      fixed(r.ms.max),
      r.ratio === null ? '—' : fixed(r.ratio, 2),
      r.referenceRatio === null ? '—' : fixed(r.referenceRatio, 2),
      kb(r.heapBytes),
      r.ratio === null
        ? ''
        : r.page === all.login!.name
          ? `≤ ${BUDGETS.timeRatio}×: ${verdict(r.ratio <= BUDGETS.timeRatio)}`
          : '(no budget)',
    ]),
    [false, false, true, true, true, true, true, true, false],
  );
  return rows;
}
