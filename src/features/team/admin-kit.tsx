import {
  useEffect,
  useEffectEvent,
  useRef,
  useId,
  useState,
  type ComponentProps,
  type ReactNode,
  type Ref,
} from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, type ApiContext } from '../../api/client';
import { errorCode } from '../../api/members';
import { WithTextPart } from '../../i18n/parts';
import { useSay, type Said } from '../../i18n/said';
import { noticesStore } from '../../state/notices';
import { Alert } from '../../ui/alert';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { afterDialogs, Dialog } from '../../ui/dialog';
import { useElement } from '../../ui/element-context';
import { ScreenLoading, Spinner } from '../../ui/spinner';
import { TextField } from '../../ui/text-field';
import { lastTime } from './format';

import { useCall } from '../../ui/use-call';

export { useCall };

// What the team administration screens share: their text part, the signed-in call, refusals as text,
// the spec's icons and the confirmation before something that cannot be undone; and for the screens of
// one of the team's lists (apps, directories, event streams, connections, domains, setup links): the
// list's panel, the question a row's button asks, acting on an item, what is shown once, and the
// dialog and in-place forms' saving.

/**
 * The texts of team administration: the lazily loaded 'admin' part, and the manage area's part for the
 * words they share (the permissions' names) — also where a screen shows outside the area (the single
 * sign-on set-up link's page).
 */
export const ADMIN_TEXTS = ['manage', 'admin'] as const;

/** A screen of team administration, shown once its texts are in. */
export function AdminPart({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <WithTextPart
      part={ADMIN_TEXTS}
      waiting={<ScreenLoading />}
      failed={<Alert tone="error">{t('common.failed')}</Alert>}
    >
      {children}
    </WithTextPart>
  );
}

const KNOWN = [
  'notAdmin',
  'notOwner',
  'lastOwner',
  'self',
  'invalidPermission',
  'invalidName',
  'nameTaken',
  'invalidCursor',
];

/**
 * A refusal of the session, not of the person: no valid token (401), or an anti-forgery token bound to
 * a session ended elsewhere. The session store checks the session on these, and the portal goes to
 * sign-in if it has ended; the screen must not say that admin rights are missing meanwhile.
 */
function sessionRefused(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  return error.status === 401 || (error.status === 403 && errorCode(error) === 'antiForgery');
}

/** Whether the caller is refused the screen: not an admin of the team (403). */
export function forbidden(error: unknown): boolean {
  return error instanceof ApiError && error.status === 403 && !sessionRefused(error);
}

/** What to say of a refusal: the server's code when the screens know it, else by status. */
export function failure(error: unknown): Said {
  const code = errorCode(error);
  if (code && KNOWN.includes(code)) return [`users.errors.${code}`];
  if (sessionRefused(error)) return ['manage.signedOut'];
  if (error instanceof ApiError) {
    if (error.status === 403) return ['users.errors.notAdmin'];
    if (error.status === 404) return ['users.errors.notFound'];
    if (error.status === 0) return ['users.errors.network'];
  }
  return ['common.failed'];
}

const ICONS = {
  add: 'M19 13h-6v6h-2v-6H5v-2h6V5h2v6h6z',
  settings:
    'M19.4 13a7.5 7.5 0 0 0 0-2l2.1-1.6-2-3.5-2.5 1a7 7 0 0 0-1.7-1L15 3.3h-4l-.4 2.6a7 7 0 0 0-1.7 1l-2.5-1-2 3.5L6.6 11a7.5 7.5 0 0 0 0 2l-2.1 1.6 2 3.5 2.5-1a7 7 0 0 0 1.7 1l.4 2.6h4l.4-2.6a7 7 0 0 0 1.7-1l2.5 1 2-3.5zM13 15.5a3.5 3.5 0 1 1 0-7 3.5 3.5 0 0 1 0 7z',
  delete: 'M6 19a2 2 0 0 0 2 2h8a2 2 0 0 0 2-2V7H6zM19 4h-3.5l-1-1h-5l-1 1H5v2h14z',
  group:
    'M16 11a3 3 0 1 0 0-6 3 3 0 0 0 0 6zm-8 0a3 3 0 1 0 0-6 3 3 0 0 0 0 6zm0 2c-2.3 0-7 1.2-7 3.5V19h14v-2.5C15 14.2 10.3 13 8 13zm8 0h-1a4.2 4.2 0 0 1 2 3.5V19h6v-2.5c0-2.3-4.7-3.5-7-3.5z',
  block:
    'M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20zM4 12a8 8 0 0 1 12.9-6.3L5.7 16.9A7.9 7.9 0 0 1 4 12zm8 8a7.9 7.9 0 0 1-4.9-1.7L18.3 7.1A8 8 0 0 1 12 20z',
  enable: 'M9 16.2 4.8 12l-1.4 1.4L9 19 21 7l-1.4-1.4z',
  edit: 'M3 17.2V21h3.8L17.8 9.9 14 6.2zM20.7 7a1 1 0 0 0 0-1.4l-2.3-2.3a1 1 0 0 0-1.4 0l-1.8 1.8 3.7 3.8z',
  key: 'M12.7 10A6 6 0 1 0 12.7 14H17v4h4v-4h2v-4zM7 14a2 2 0 1 1 0-4 2 2 0 0 1 0 4z',
  copy: 'M16 1H4a2 2 0 0 0-2 2v14h2V3h12zm3 4H8a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h11a2 2 0 0 0 2-2V7a2 2 0 0 0-2-2zm0 16H8V7h11z',
  send: 'M2 21 23 12 2 3v7l15 2-15 2z',
  pause: 'M6 19h4V5H6zm8-14v14h4V5z',
  play: 'M8 5v14l11-7z',
  close: 'M19 6.4 17.6 5 12 10.6 6.4 5 5 6.4 10.6 12 5 17.6 6.4 19l5.6-5.6 5.6 5.6 1.4-1.4-5.6-5.6z',
  unlock:
    'M12 17a2 2 0 1 0 0-4 2 2 0 0 0 0 4zm6-9h-1V6a5 5 0 0 0-9.9-1l1.9.6A3 3 0 0 1 15 6v2H6a2 2 0 0 0-2 2v10a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V10a2 2 0 0 0-2-2zm0 12H6V10h12z',
} as const;
export type IconName = keyof typeof ICONS;
/** The icons that point (the paper plane flies toward the line's end): mirrored right to left (base.css). */
const POINTING: ReadonlySet<IconName> = new Set(['send']);

export function Icon({ name }: { name: IconName }) {
  return (
    <svg
      viewBox="0 0 24 24"
      width="22"
      height="22"
      aria-hidden="true"
      className={POINTING.has(name) ? 'flip-rtl' : undefined}
    >
      <path fill="currentColor" d={ICONS[name]} />
    </svg>
  );
}

/**
 * An icon button whose accessible name is `label` (also its tooltip). `blockedBy`: the id of the note
 * saying why the server would refuse it; it then stays focusable but does nothing (aria-disabled).
 */
export function IconButton({
  icon,
  label,
  onClick,
  blockedBy,
}: {
  icon: IconName;
  label: string;
  onClick(): void;
  blockedBy?: string;
}) {
  return (
    <button
      type="button"
      className="icon-button subtle"
      aria-label={label}
      title={label}
      aria-disabled={blockedBy ? true : undefined}
      aria-describedby={blockedBy}
      onClick={blockedBy ? undefined : onClick}
    >
      <Icon name={icon} />
    </button>
  );
}

/** A list's next page: a failure to load it, and the button that loads it while there is one. */
export function ShowMore({
  state,
  hasMore,
  label,
  className = 'button secondary',
  onMore,
}: {
  state: 'idle' | 'loading' | 'failed';
  hasMore: boolean;
  label: string;
  className?: string;
  onMore(): void;
}) {
  const { t } = useTranslation();
  return (
    <>
      {state === 'failed' ? <Alert tone="error">{t('common.failed')}</Alert> : null}
      {hasMore ? (
        <button
          type="button"
          className={className}
          part="button"
          disabled={state === 'loading'}
          onClick={onMore}
        >
          {state === 'loading' ? t('common.loading') : label}
        </button>
      ) : null}
    </>
  );
}

/** A button copying `value`, its result announced as a notice. */
export function CopyButton({ value, label, text }: { value: string; label: string; text?: string }) {
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      noticesStore.getState().show(['copy.done'], 'Success');
    } catch {
      noticesStore.getState().show(['copy.failed'], 'Failure');
    }
  }
  return text ? (
    <button type="button" className="button secondary small" part="button" onClick={() => void copy()}>
      {text}
    </button>
  ) : (
    <button
      type="button"
      className="icon-button subtle"
      aria-label={label}
      title={label}
      onClick={() => void copy()}
    >
      <Icon name="copy" />
    </button>
  );
}

/** A value to copy (an app's secret, a directory's token): read-only text, selectable by hand where the clipboard is refused. */
export function CopyField({ label, value, copy }: { label: string; value: string; copy: string }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        className="app-secret"
        // A secret or an address: left to right in every language.
        dir="ltr"
        readOnly
        value={value}
        spellCheck={false}
        onFocus={(event) => event.target.select()}
      />
      <CopyButton value={value} label={copy} text={copy} />
    </div>
  );
}

/**
 * One of a few choices as radio buttons, each named and described by its hint; `autoFocus`: the
 * chosen one takes the focus when the form opens.
 */
export function Choices<Choice extends string>({
  legend,
  hint,
  name,
  choices,
  value,
  autoFocus = false,
  onChange,
  text,
}: {
  legend: string;
  /** What the choice is about, under the legend. */
  hint?: string;
  name: string;
  choices: readonly Choice[];
  value: Choice;
  autoFocus?: boolean;
  onChange(choice: Choice): void;
  text(choice: Choice): { name: string; hint: string };
}) {
  const id = useId();
  return (
    <fieldset className="stack tight" aria-describedby={hint ? `${id}-hint` : undefined}>
      <legend className="check-name">{legend}</legend>
      {hint ? (
        <p className="hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {choices.map((choice) => (
        <label key={choice} className="check">
          <input
            type="radio"
            name={name}
            value={choice}
            checked={value === choice}
            autoFocus={autoFocus && value === choice}
            aria-labelledby={`${id}-${choice}-name`}
            aria-describedby={`${id}-${choice}`}
            onChange={() => onChange(choice)}
          />
          <span>
            <span className="check-name" id={`${id}-${choice}-name`}>
              {text(choice).name}
            </span>
            <span className="hint" id={`${id}-${choice}`}>
              {text(choice).hint}
            </span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}

/**
 * What the server answers once (an app's secret, a directory's token), shown in a dialog of its own
 * (`children`: the values to copy and why now) that closes on `done`. Opened once the dialog that asked
 * for it has gone (`afterDialogs`), so it returns focus where that one did.
 */
export function ShownOnceDialog({
  title,
  done,
  onClose,
  returnFocus,
  children,
}: {
  title: string;
  done: string;
  onClose(): void;
  returnFocus(): HTMLElement | null;
  children: ReactNode;
}) {
  const [open, setOpen] = useState(true);
  const close = () => {
    setOpen(false);
    // The content stays for the dialog's exit animation and until the focus is back.
    afterDialogs(onClose);
  };
  return (
    <Dialog open={open} title={title} onClose={close} returnFocus={returnFocus}>
      <div className="stack">
        {children}
        <div className="dialog-actions">
          <button type="button" className="button" part="button" onClick={close}>
            {done}
          </button>
        </div>
      </div>
    </Dialog>
  );
}

/** What a screen's ShownOnceDialog of its own is given: the answer shown once, and its close. */
export interface ShownOnceProps<T> {
  shown: T;
  onClose(): void;
  returnFocus(): HTMLElement | null;
}

/** When something last happened (an app's or a directory's use, a delivery), or that it never did. */
export function LastTime({ iso }: { iso: string | null }) {
  const { t } = useTranslation();
  const { language } = useElement();
  return iso ? <time dateTime={iso}>{lastTime(iso, language, t)}</time> : t('users.never');
}

/** A refusal that means the thing acted on is gone (removed meanwhile, e.g. in another tab). */
export function gone(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 404 || error.status === 410);
}

/** The shared confirmation (ui/confirm-dialog.tsx), with the admin screens' words for a refusal. */
export function Confirm(props: Omit<ComponentProps<typeof ConfirmDialog>, 'describeError'>) {
  return <ConfirmDialog {...props} describeError={failure} />;
}

/** `value`, once it has stayed the same for `ms`. */
export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/**
 * A dialog form's one field and the problem shown at it (a check before the call, or the server's
 * refusal there): the field takes the focus once its problem is on screen and the form is enabled
 * again. Set a new object each time, so the same refusal twice still moves the focus back.
 */
export function useFieldProblem() {
  const [problem, setProblem] = useState<{ text: Said } | null>(null);
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (problem) field.current?.focus();
  }, [problem]);
  return { problem, setProblem, field };
}

/** The wait before a search is sent: long enough not to ask at every keystroke. */
export const SEARCH_DELAY_MS = 300;

/**
 * The field that finds a team's members by the start of a name or an address (the server's search):
 * the group page's "add a member" and the event log's member filter.
 */
export function MemberSearchField({
  value,
  onChange,
  autoFocus,
}: {
  value: string;
  onChange(text: string): void;
  autoFocus?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <TextField
      label={t('groups.add.label')}
      hint={t('users.search.hint')}
      type="search"
      autoComplete="off"
      maxLength={100}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      autoFocus={autoFocus}
    />
  );
}

/** A list that failed to load: why, and (unless the caller is no admin) a way to try again. */
export function LoadFailed({ error, onRetry }: { error: unknown; onRetry(): void }) {
  const { t } = useTranslation();
  const say = useSay();
  return (
    <Alert tone="error">
      <p>{say(failure(error))}</p>
      {forbidden(error) ? null : (
        <button type="button" className="button secondary small" part="button" onClick={onRetry}>
          {t('common.retry')}
        </button>
      )}
    </Alert>
  );
}

/** A list on its way, said to screen readers too. */
export function ListLoading() {
  const { t } = useTranslation();
  return (
    <div className="loading" role="status">
      <Spinner />
      <span>{t('common.loading')}</span>
    </div>
  );
}

/**
 * A refusal that means the thing acted on is gone makes the list load again (`reload`); `watched`
 * does that for an action whose refusal is shown elsewhere (a confirmation), and passes it on.
 */
export function followGone(reload: () => void) {
  const reloadIfGone = (problem: unknown) => {
    if (gone(problem)) reload();
  };
  async function watched(action: Promise<void>) {
    try {
      await action;
    } catch (problem) {
      reloadIfGone(problem);
      throw problem;
    }
  }
  return { reloadIfGone, watched };
}

/** A list of the team's (apps, groups, domains) as its screen holds it: see {@link useTeamList}. */
export interface TeamList<T> {
  /** Null while it loads. */
  items: T[] | null;
  /** Why the last load failed; a new attempt shows as loading. */
  error: unknown;
  /** Load it again (after a failure, or when what was acted on is gone). */
  reload(): void;
  /** Put an item in (or in place of the one with its key), in order. */
  put(item: T): void;
  drop(item: T): void;
}

/**
 * A list of the team's things loaded with the signed-in call, kept in `order` and by `keyOf` as the
 * screen adds, changes and removes them. A load belongs to its attempt: trying again shows as loading
 * with no state to reset, and an answer to a screen that has gone is dropped.
 */
export function useTeamList<T>(
  load: (ctx: ApiContext, signal: AbortSignal) => Promise<T[]>,
  keyOf: (item: T) => string,
  order?: (a: T, b: T) => number,
): TeamList<T> {
  const call = useCall();
  const [items, setItems] = useState<T[] | null>(null);
  const [attempt, setAttempt] = useState(0);
  const [failed, setFailed] = useState<{ attempt: number; error: unknown } | null>(null);
  const sorted = (list: T[]) => (order ? [...list].sort(order) : list);
  // Only a new attempt loads again: the loader and the order are the screen's, whatever their identity.
  const loadNow = useEffectEvent((signal: AbortSignal) =>
    call((ctx) => load(ctx, signal)).then((list) => setItems(sorted(list))),
  );

  useEffect(() => {
    const stop = new AbortController();
    loadNow(stop.signal).catch(
      (problem: unknown) => !stop.signal.aborted && setFailed({ attempt, error: problem }),
    );
    return () => stop.abort();
  }, [attempt]);

  return {
    items,
    error: failed?.attempt === attempt ? failed.error : null,
    reload: () => setAttempt((n) => n + 1),
    put: (item) => setItems((all) => sorted([...(all ?? []).filter((i) => keyOf(i) !== keyOf(item)), item])),
    drop: (item) => setItems((all) => all && all.filter((i) => keyOf(i) !== keyOf(item))),
  };
}

/**
 * A team list's body: why it failed to load (with a retry), that it is loading, that it is empty
 * (`empty`), or the list itself (`children`).
 */
export function TeamListBody<T>({
  list,
  empty,
  children,
}: {
  list: TeamList<T>;
  empty: string;
  children(items: T[]): ReactNode;
}) {
  if (list.error) return <LoadFailed error={list.error} onRetry={list.reload} />;
  if (list.items === null) return <ListLoading />;
  if (list.items.length === 0) return <p>{empty}</p>;
  return children(list.items);
}

/**
 * A team list's heading (its id `titleId` labels the list), the button that adds to it (not shown to a
 * caller refused the list) and what the list is for.
 */
export function TeamListHeading({
  titleId,
  title,
  intro,
  actionLabel,
  onAction,
  buttonRef,
  list,
}: {
  titleId: string;
  title: string;
  intro: string;
  actionLabel: string;
  onAction(): void;
  buttonRef?: Ref<HTMLButtonElement>;
  list: TeamList<unknown>;
}) {
  return (
    <>
      <div className="panel-heading">
        <h2 className="panel-title" id={titleId}>
          {title}
        </h2>
        {forbidden(list.error) ? null : (
          <button type="button" className="button small" part="button" ref={buttonRef} onClick={onAction}>
            {actionLabel}
          </button>
        )}
      </div>
      <p className="hint">{intro}</p>
    </>
  );
}

/** What a form in a FormDialog (ui/dialog.tsx) is given: the dialog's busy state, and its close. */
export interface InDialogProps {
  busy: boolean;
  setBusy(busy: boolean): void;
  onClose(): void;
}

/**
 * A dialog's form sending what was typed: busy meanwhile; answered, `then` takes the answer (the list
 * gets it, a notice says so) and the dialog closes; refused, `refused` says why at the form, which
 * stays open with what was typed.
 */
export function useDialogCall({ setBusy, onClose }: InDialogProps) {
  const call = useCall();
  return async <R,>(
    request: (ctx: ApiContext) => Promise<R>,
    then: (answer: R) => void,
    refused: (error: unknown) => void,
  ) => {
    setBusy(true);
    try {
      then(await call(request));
      setBusy(false);
      onClose();
    } catch (error) {
      setBusy(false);
      refused(error);
    }
  };
}

/** A notice of what was done, or (`ok` false) of why it was not. */
export function notify(text: Said, ok = true) {
  noticesStore.getState().show(text, ok ? 'Success' : 'Failure');
}

/**
 * What a row's button asked about (`ask`), for the dialog that asks back (a confirmation, a form).
 * It stays after `close`, so the dialog keeps its content through its exit animation; the next
 * question replaces it.
 */
export function useAsked<T>() {
  const [asked, setAsked] = useState<T | null>(null);
  const [open, setOpen] = useState(false);
  return {
    asked,
    open,
    ask(what: T) {
      setAsked(what);
      setOpen(true);
    },
    close: () => setOpen(false),
  };
}

/**
 * What the server answers once (an app's secret, a directory's token), for its ShownOnceDialog:
 * `reveal` opens it once the dialog that asked for it has gone and given the focus back to its opener,
 * so that closing, this one returns the focus as that one did.
 */
export function useShownOnce<T>() {
  const [shown, setShown] = useState<T | null>(null);
  return {
    shown,
    reveal: (value: T) => afterDialogs(() => setShown(value)),
    dismiss: () => setShown(null),
  };
}

/**
 * Acting on a team list's items with the signed-in call (see {@link followGone}). `act`: the call, then
 * what its answer changes; a refusal meaning the item is gone reloads the list and is passed on, for
 * the confirmation that asked to show. `actNow`: the same for a row's button that asks nothing, its
 * refusal told as a notice (`say`: in the screen's own words where it has some). What most answers
 * change: `putting` the changed item in the list, `dropping` the removed one, each with its notice.
 */
export function useListActions<T>(list: TeamList<T>) {
  const call = useCall();
  const { reloadIfGone, watched } = followGone(list.reload);
  const act = <R,>(request: (ctx: ApiContext) => Promise<R>, then: (answer: R) => void) =>
    watched(call(request).then(then));
  const actNow = <R,>(
    request: (ctx: ApiContext) => Promise<R>,
    then: (answer: R) => void,
    say: (problem: unknown) => Said = failure,
  ) => void act(request, then).catch((problem: unknown) => notify(say(problem), false));
  const putting = (done: (saved: T) => Said) => (saved: T) => {
    list.put(saved);
    notify(done(saved));
  };
  const dropping = (item: T, done: Said) => () => {
    list.drop(item);
    notify(done);
  };
  return { call, act, actNow, putting, dropping, reloadIfGone };
}

/**
 * A team list's panel: its heading with the button that adds to it, and its body (see
 * {@link TeamListHeading}, {@link TeamListBody}) whose items are `row`s of a list labelled by the
 * heading; `children`: the panel's dialogs.
 */
export function TeamListPanel<T>({
  name,
  list,
  title,
  intro,
  empty,
  actionLabel,
  onAction,
  buttonRef,
  listClass = 'members',
  listRef,
  row,
  children,
}: {
  /** Names the heading's id (`${name}-title`). */
  name: string;
  list: TeamList<T>;
  title: string;
  intro: string;
  empty: string;
  actionLabel: string;
  onAction(): void;
  buttonRef?: Ref<HTMLButtonElement>;
  listClass?: string;
  listRef?: Ref<HTMLUListElement>;
  /** An item's row: a keyed `<li>`. */
  row(item: T): ReactNode;
  children?: ReactNode;
}) {
  const titleId = `${name}-title`;
  return (
    <section className="panel" part="card" aria-labelledby={titleId}>
      <TeamListHeading
        titleId={titleId}
        title={title}
        intro={intro}
        actionLabel={actionLabel}
        onAction={onAction}
        buttonRef={buttonRef}
        list={list}
      />
      <TeamListBody list={list} empty={empty}>
        {(items) => (
          <ul className={listClass} aria-labelledby={titleId} ref={listRef}>
            {items.map(row)}
          </ul>
        )}
      </TeamListBody>
      {children}
    </section>
  );
}

/**
 * A checkbox named by `label` and described by `hint`. `busy`: it stays focusable but does nothing
 * (aria-disabled) while what it set is saved.
 */
export function Check({
  label,
  hint,
  name,
  checked,
  disabled,
  busy,
  onChange,
}: {
  label: string;
  hint: string;
  name?: string;
  checked: boolean;
  disabled?: boolean;
  busy?: boolean;
  onChange(checked: boolean): void;
}) {
  const id = useId();
  return (
    <label className="check">
      <input
        type="checkbox"
        name={name}
        checked={checked}
        disabled={disabled}
        aria-disabled={busy || undefined}
        aria-labelledby={`${id}-name`}
        aria-describedby={`${id}-hint`}
        onChange={(event) => {
          if (!busy) onChange(event.target.checked);
        }}
      />
      <span>
        <span className="check-name" id={`${id}-name`}>
          {label}
        </span>
        <span className="hint" id={`${id}-hint`}>
          {hint}
        </span>
      </span>
    </label>
  );
}

/**
 * A small form saved in place, in a list's row (a domain's sign-in, a connection's options):
 * `saveChange` runs one change at a time, busy meanwhile, its refusal kept (`error`) for
 * {@link SaveProblem} to say.
 */
export function useSaveInPlace() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Said | null>(null);
  async function saveChange(change: () => Promise<void>) {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      await change();
    } catch (problem) {
      setError(failure(problem));
    } finally {
      setBusy(false);
    }
  }
  return { busy, error, saveChange };
}

/** The refusal of a form saved in place, said at once. */
export function SaveProblem({ error }: { error: Said | null }) {
  const say = useSay();
  return error ? (
    <p className="field-error" role="alert">
      {say(error)}
    </p>
  ) : null;
}

/**
 * A form saved in place's button (`label`: its name, which says what it saves): it does nothing while
 * nothing changed or it saves.
 */
export function SaveButton({
  busy,
  changed,
  label,
  text,
}: {
  busy: boolean;
  changed: boolean;
  label: string;
  text: string;
}) {
  const { t } = useTranslation();
  return (
    <div>
      <button
        type="submit"
        className="button secondary small"
        part="button"
        aria-label={label}
        aria-disabled={busy || !changed || undefined}
      >
        {busy ? t('common.saving') : text}
      </button>
    </div>
  );
}
