import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { composed, useSay, type Said } from '../../i18n/said';
import type { TFunction } from 'i18next';
import {
  addStream,
  listStreams,
  removeStream,
  rotateStreamSecret,
  setStreamPaused,
  testStream,
  type EventStream,
  type EventStreamWithSecret,
  type StreamTestResult,
} from '../../api/event-streams';
import { STREAM_URL_LENGTH } from '../../contract/event-streams';
import { Alert } from '../../ui/alert';
import { DialogForm, FormDialog } from '../../ui/dialog';
import { TextField } from '../../ui/text-field';
import {
  AdminPart,
  Confirm,
  CopyField,
  failure,
  IconButton,
  type InDialogProps,
  notify,
  ShownOnceDialog,
  type ShownOnceProps,
  LastTime,
  TeamListPanel,
  useAsked,
  useDialogCall,
  useListActions,
  useShownOnce,
  useTeamList,
} from './admin-kit';
import { refusalOf } from './format';

/**
 * Event streaming (routes/event-streams.ts): the HTTPS endpoints that receive each of the team's events,
 * signed per Standard Webhooks. Add one (its address), send it a test event, give it a new signing
 * secret, pause or resume it, remove it; each shows how its deliveries go. The secret shows once, in a
 * dialog, right after the server made it.
 */
export default function StreamingPage() {
  return (
    <AdminPart>
      <Streams />
    </AdminPart>
  );
}

type Asked = { kind: 'rotate' | 'pause' | 'remove'; stream: EventStream };

const byCreation = (a: EventStream, b: EventStream) => a.createdAt.localeCompare(b.createdAt);

/** The endpoint as people read it: the address without its scheme. */
const shown = (stream: EventStream) => stream.url.replace(/^https?:\/\//, '');

/** What the last failure was: the status answered, or why there was no answer. */
function problemText(t: TFunction, problem: EventStream['lastProblem'], status: number | null): string {
  if (problem === 'badStatus' && status !== null) return t('streaming.problems.status', { status });
  return t(`streaming.problems.${problem ?? 'unreachable'}`);
}

function Streams() {
  const { t } = useTranslation();
  const streams = useTeamList(
    async (ctx, signal) => (await listStreams(ctx, signal)).streams,
    (stream) => stream.id,
    byCreation,
  );
  const { asked, open, ask, close } = useAsked<Asked>();
  const [adding, setAdding] = useState(false);
  const secret = useShownOnce<EventStreamWithSecret>();
  const addButton = useRef<HTMLButtonElement>(null);
  const { put } = streams;
  const { call, act, actNow, putting, dropping } = useListActions(streams);
  const showSecret = (answer: EventStreamWithSecret) => {
    put(answer.stream);
    secret.reveal(answer);
  };

  const resume = (stream: EventStream) =>
    actNow(
      (ctx) => setStreamPaused(ctx, stream.id, false),
      putting((row) => ['streaming.resume.done', { endpoint: shown(row) }]),
    );

  const test = (stream: EventStream) =>
    void call((ctx) => testStream(ctx, stream.id))
      .then(({ stream: row, result }) => {
        put(row);
        notify(testText(result, shown(row)), result.ok);
      })
      .catch((error: unknown) => notify(failure(error), false));

  return (
    <TeamListPanel
      name="streaming"
      list={streams}
      title={t('streaming.title')}
      intro={t('streaming.intro')}
      empty={t('streaming.none')}
      actionLabel={t('streaming.add.open')}
      onAction={() => setAdding(true)}
      buttonRef={addButton}
      row={(stream) => (
        <StreamItem
          key={stream.id}
          stream={stream}
          onTest={() => test(stream)}
          onRotate={() => ask({ kind: 'rotate', stream })}
          onPause={() => ask({ kind: 'pause', stream })}
          onResume={() => resume(stream)}
          onRemove={() => ask({ kind: 'remove', stream })}
        />
      )}
    >
      <FormDialog open={adding} title={t('streaming.add.title')} onClose={() => setAdding(false)}>
        {(busy, setBusy) => (
          <AddForm busy={busy} setBusy={setBusy} onClose={() => setAdding(false)} onAdded={showSecret} />
        )}
      </FormDialog>
      {asked?.kind === 'rotate' ? (
        <Confirm
          open={open}
          title={t('streaming.rotate.title', { endpoint: shown(asked.stream) })}
          text={t('streaming.rotate.text')}
          action={t('streaming.rotate.confirm')}
          onConfirm={() => act((ctx) => rotateStreamSecret(ctx, asked.stream.id), showSecret)}
          onClose={close}
        />
      ) : null}
      {asked?.kind === 'pause' ? (
        <Confirm
          open={open}
          title={t('streaming.pause.title', { endpoint: shown(asked.stream) })}
          text={t('streaming.pause.text')}
          action={t('streaming.pause.confirm')}
          onConfirm={() =>
            act(
              (ctx) => setStreamPaused(ctx, asked.stream.id, true),
              putting((row) => ['streaming.pause.done', { endpoint: shown(row) }]),
            )
          }
          onClose={close}
        />
      ) : null}
      {asked?.kind === 'remove' ? (
        <Confirm
          open={open}
          title={t('streaming.remove.title', { endpoint: shown(asked.stream) })}
          text={t('streaming.remove.text')}
          action={t('streaming.remove.confirm')}
          onConfirm={() =>
            act(
              (ctx) => removeStream(ctx, asked.stream.id),
              dropping(asked.stream, ['streaming.remove.done', { endpoint: shown(asked.stream) }]),
            )
          }
          onClose={close}
          returnFocus={() => addButton.current}
        />
      ) : null}
      {secret.shown ? (
        <SecretDialog shown={secret.shown} onClose={secret.dismiss} returnFocus={() => addButton.current} />
      ) : null}
    </TeamListPanel>
  );
}

/** The test event's outcome as a notice. */
function testText(result: StreamTestResult, endpoint: string): Said {
  if (result.ok) return ['streaming.test.ok', { endpoint, status: result.status ?? 200 }];
  return composed((t) =>
    t('streaming.test.failed', { endpoint, problem: problemText(t, result.problem, result.status) }),
  );
}

/** One endpoint: its address, state, last delivery, what waits, and its actions. */
function StreamItem({
  stream,
  onTest,
  onRotate,
  onPause,
  onResume,
  onRemove,
}: {
  stream: EventStream;
  onTest(): void;
  onRotate(): void;
  onPause(): void;
  onResume(): void;
  onRemove(): void;
}) {
  const { t } = useTranslation();
  const endpoint = shown(stream);
  return (
    <li className="member">
      <div className="member-who">
        <span className="member-name">{endpoint}</span>
      </div>
      <dl className="member-facts">
        <div>
          <dt>{t('streaming.columns.state')}</dt>
          <dd>
            {stream.state === 'active' && stream.failingSince ? (
              <span className="field-error">{t('streaming.state.failing')}</span>
            ) : stream.state === 'disabled' ? (
              <span className="field-error">{t('streaming.state.disabled')}</span>
            ) : (
              t(`streaming.state.${stream.state}`)
            )}
          </dd>
        </div>
        <div>
          <dt>{t('streaming.columns.lastDelivery')}</dt>
          <dd>
            <LastTime iso={stream.lastDeliveryAt} />
          </dd>
        </div>
        {stream.failingSince ? (
          <div>
            <dt>{t('streaming.columns.failingSince')}</dt>
            <dd>
              <LastTime iso={stream.failingSince} />
            </dd>
          </div>
        ) : null}
        {stream.lastProblem ? (
          <div>
            <dt>{t('streaming.columns.lastProblem')}</dt>
            <dd>{problemText(t, stream.lastProblem, stream.lastStatus)}</dd>
          </div>
        ) : null}
        <div>
          <dt>{t('streaming.columns.pending')}</dt>
          <dd>{t('streaming.pending', { count: stream.pending })}</dd>
        </div>
      </dl>
      <div className="member-actions">
        <IconButton icon="send" label={t('streaming.actions.test', { endpoint })} onClick={onTest} />
        <IconButton icon="key" label={t('streaming.actions.rotate', { endpoint })} onClick={onRotate} />
        {stream.state === 'active' ? (
          <IconButton icon="pause" label={t('streaming.actions.pause', { endpoint })} onClick={onPause} />
        ) : (
          <IconButton icon="play" label={t('streaming.actions.resume', { endpoint })} onClick={onResume} />
        )}
        <IconButton icon="delete" label={t('streaming.actions.remove', { endpoint })} onClick={onRemove} />
      </div>
    </li>
  );
}

/** The endpoint's address; what was typed stays on a refusal. */
function AddForm(props: InDialogProps & { onAdded(answer: EventStreamWithSecret): void }) {
  const { busy, onAdded, onClose } = props;
  const { t } = useTranslation();
  const say = useSay();
  const send = useDialogCall(props);
  const [url, setUrl] = useState('');
  const [problems, setProblems] = useState<{ url?: Said; form?: Said }>({});

  async function submit(event: FormEvent) {
    event.preventDefault();
    const trimmed = url.trim();
    if (!trimmed) return setProblems({ url: ['streaming.errors.urlRequired'] });
    setProblems({});
    await send(
      (ctx) => addStream(ctx, { url: trimmed }),
      (answer) => {
        onAdded(answer);
        notify(['streaming.add.done', { endpoint: shown(answer.stream) }]);
      },
      (error) => {
        const { code } = refusalOf(error);
        if (code === 'invalidUrl' || code === 'insecureUrl')
          setProblems({ url: [`streaming.errors.${code}`] });
        else if (code === 'tooManyStreams') setProblems({ form: ['streaming.errors.tooManyStreams'] });
        else setProblems({ form: failure(error) });
      },
    );
  }

  return (
    <DialogForm
      busy={busy}
      onSubmit={submit}
      onClose={onClose}
      submitLabel={t('streaming.add.submit')}
      error={say(problems.form)}
    >
      <TextField
        label={t('streaming.fields.url')}
        hint={t('streaming.fields.urlHint')}
        name="url"
        type="url"
        inputMode="url"
        autoComplete="off"
        spellCheck={false}
        maxLength={STREAM_URL_LENGTH}
        value={url}
        onChange={(event) => setUrl(event.target.value)}
        error={say(problems.url)}
        autoFocus
      />
    </DialogForm>
  );
}

/** The endpoint just added or given a new secret: the secret, once only. */
function SecretDialog({ shown: answer, onClose, returnFocus }: ShownOnceProps<EventStreamWithSecret>) {
  const { t } = useTranslation();
  return (
    <ShownOnceDialog
      title={t('streaming.secret.title', { endpoint: shown(answer.stream) })}
      done={t('streaming.secret.done')}
      onClose={onClose}
      returnFocus={returnFocus}
    >
      <CopyField
        label={t('streaming.secret.label')}
        value={answer.secret}
        copy={t('streaming.secret.copy')}
      />
      <Alert tone="info">{t('streaming.secret.once')}</Alert>
    </ShownOnceDialog>
  );
}
