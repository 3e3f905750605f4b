/** The `time` part: navigation to a usable page, against its floor, 1× and 4× CPU (Chromium). */
import { kb } from '../bytes';
import { fixed, heading, table, verdict } from '../output';
import { spread } from '../harness';
import { BUDGETS, TIME_LOADS, TIME_ROUNDS } from '../settings';
import { timeToUsable, type BenchPage, type TimeResult } from '../time-to-usable';

export async function time(all: Record<string, BenchPage>) {
  const results = await timeToUsable(
    [all.login!, all.loginFloor!, all.loginMinimalFloor!, all.header!, all.headerFloor!],
    TIME_LOADS,
    [1, 4],
    TIME_ROUNDS,
  );
  const find = (page: string | null, throttle: number) =>
    results.find((f) => f.page === page && f.throttle === throttle);
  // A ratio per round (that round's medians), then the median of those: one slow round moves it less.
  const ratios = (r: TimeResult, other: TimeResult | undefined) =>
    other ? spread(r.roundMedians.map((ms, round) => ms / other.roundMedians[round]!)) : null;
  const rows = results.map((r: TimeResult) => {
    const floor = ratios(r, find(r.floor, r.throttle));
    const reference = ratios(r, find(r.reference, r.throttle));
    return {
      ...r,
      ratio: floor?.median ?? null,
      ratioSpread: floor,
      referenceRatio: reference?.median ?? null,
    };
  });
  heading(
    `Time to usable (ms since navigation, ${TIME_ROUNDS} rounds of ${TIME_LOADS} cold loads each, interleaved)`,
  );
  console.log(
    'Usable: the sign-in pages when the password field has a layout box; the header pages when the\n' +
      "signed-in user's initials do. The header floor asks the server the same four questions\n" +
      '(discovery, session check, token exchange, user info) and renders the initials with React alone.\n' +
      'The login floor renders the very form <acct-login team="acme"> shows, with the same markup and\n' +
      'stylesheet, with React alone; the minimal login floor (a smaller, unstyled form) was the floor of\n' +
      "earlier runs and is kept for reference only. A ratio is taken per round, of the two pages'\n" +
      "medians in that round; the table gives the median of the rounds' ratios and their range.\n",
  );
  table(
    [
      'page',
      'CPU',
      'median',
      'min',
      'max',
      "rounds' medians",
      '÷ floor',
      "rounds' ratios",
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
      r.roundMedians.map((ms) => fixed(ms)).join(', '),
      r.ratio === null ? '—' : fixed(r.ratio, 2),
      r.ratioSpread ? `${fixed(r.ratioSpread.min, 2)}–${fixed(r.ratioSpread.max, 2)}` : '—',
      r.referenceRatio === null ? '—' : fixed(r.referenceRatio, 2),
      kb(r.heapBytes),
      r.ratio === null
        ? ''
        : r.page === all.login!.name
          ? `≤ ${BUDGETS.timeRatio}×: ${verdict(r.ratio <= BUDGETS.timeRatio)}`
          : '(no budget)',
    ]),
    [false, false, true, true, true, true, true, true, true, true, false],
  );
  return rows;
}
