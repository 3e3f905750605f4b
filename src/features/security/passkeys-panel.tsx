import { browserSupportsWebAuthn } from '@simplewebauthn/browser';
import type { TFunction } from 'i18next';
import { useCallback, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  addPasskey,
  getPasskeys,
  getRegistrationOptions,
  removePasskey,
  renamePasskey,
  type Passkey,
} from '../../api/passkeys';
import type { Said } from '../../i18n/said';
import { noticesStore } from '../../state/notices';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { useElement } from '../../ui/element-context';
import { Spinner } from '../../ui/spinner';
import { isCancelled, useLoaded } from './common';
import { Failed } from '../../ui/failed';
import { fullTime, timeAgo, useNow } from '../../ui/time';
import { refusalOf } from '../../api/refusal';
import { useCall } from '../../ui/use-call';
import { PasskeyNameDialog, type NameProblem } from './passkey-name-dialog';
import { createPasskey } from './webauthn';

/** What a dialog is open for: a new passkey, renaming one, or removing one. */
type Editing = { kind: 'add' } | { kind: 'rename'; passkey: Passkey } | { kind: 'remove'; passkey: Passkey };

/** Chromium's User-Agent Client Hints (not in TypeScript's DOM types yet, and not in every browser). */
interface NavigatorUAData {
  platform?: string;
}

/** A first name for a new passkey: the device's system ("Passkey on macOS"), or the date. */
function defaultName(t: TFunction, language: string): string {
  const platform = (navigator as Navigator & { userAgentData?: NavigatorUAData }).userAgentData?.platform;
  if (platform) return t('security.passkeys.defaultName', { platform });
  const date = new Intl.DateTimeFormat(language, { dateStyle: 'medium' }).format(new Date());
  return t('security.passkeys.defaultNameDated', { date });
}

/** A server's refusal of a name or a new passkey, as the dialog shows it. */
function problemOf(error: unknown): NameProblem {
  if (isCancelled(error)) return { at: 'form', message: ['security.passkeys.errors.cancelled'], calm: true };
  // The authenticator already holds a passkey of this account (the server listed it as excluded).
  if (error instanceof Error && error.name === 'InvalidStateError')
    return { at: 'form', message: ['security.passkeys.errors.alreadyRegistered'] };
  const { status, code } = refusalOf(error);
  if (code === 'invalidName') return { at: 'name', message: ['security.passkeys.errors.invalidName'] };
  if (code === 'passkeyRefused' || code === 'alreadyRegistered')
    return { at: 'form', message: [`security.passkeys.errors.${code}`] };
  if (status === 404) return { at: 'form', message: ['security.passkeys.errors.gone'] };
  return { at: 'form', message: ['common.failed'] };
}

/**
 * The user's passkeys: the list (name, when added and last used, synced or on one device), adding one
 * (a name, then the browser's prompt), renaming and removing — never the last way to sign in, which
 * the server refuses with `onlySignIn`. `changed` tells the page (the two-step panel counts passkeys).
 */
export function PasskeysPanel({ changed }: { changed(): void }) {
  const { t } = useTranslation();
  const { language } = useElement();
  const call = useCall();
  const now = useNow();
  const load = useCallback(() => call(getPasskeys), [call]);
  const [passkeys, reload] = useLoaded(load);
  const [editing, setEditing] = useState<Editing | null>(null);
  const [open, setOpen] = useState(false);
  const [firstName, setFirstName] = useState('');
  const titleId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const addButton = useRef<HTMLButtonElement>(null);
  const supported = browserSupportsWebAuthn();

  const edit = (next: Editing) => {
    if (next.kind === 'add') setFirstName(defaultName(t, language));
    setEditing(next);
    setOpen(true);
  };
  const done = (message: Said) => {
    noticesStore.getState().show(message, 'Success');
    reload();
    changed();
  };

  async function add(name: string): Promise<NameProblem | null> {
    try {
      const response = await createPasskey(await call(getRegistrationOptions));
      await call((ctx) => addPasskey(ctx, name, response));
    } catch (error) {
      return problemOf(error);
    }
    done(['security.passkeys.added']);
    return null;
  }

  async function rename(passkey: Passkey, name: string): Promise<NameProblem | null> {
    try {
      await call((ctx) => renamePasskey(ctx, passkey.id, name));
    } catch (error) {
      return problemOf(error);
    }
    done(['security.passkeys.renamed']);
    return null;
  }

  async function remove(passkey: Passkey) {
    await call((ctx) => removePasskey(ctx, passkey.id));
    done(['security.passkeys.removed']);
  }

  function describeRemoval(error: unknown): Said {
    const { status, code } = refusalOf(error);
    if (code === 'onlySignIn') return ['security.passkeys.errors.onlySignIn'];
    if (status === 404) return ['security.passkeys.errors.gone'];
    return ['common.failed'];
  }

  return (
    <section className="panel" part="card" aria-labelledby={titleId}>
      <div className="panel-head">
        <h2 className="panel-title" id={titleId} ref={heading} tabIndex={-1}>
          {t('security.passkeys.title')}
        </h2>
        {supported ? (
          <button
            type="button"
            className="button secondary small"
            part="button"
            ref={addButton}
            onClick={() => edit({ kind: 'add' })}
          >
            {t('security.passkeys.add')}
          </button>
        ) : null}
      </div>
      <p className="hint">{t('security.passkeys.intro')}</p>
      {supported ? null : <p>{t('security.passkeys.unsupported')}</p>}
      {passkeys === null ? (
        <div className="loading" role="status">
          <Spinner />
          <span>{t('common.loading')}</span>
        </div>
      ) : passkeys === 'failed' ? (
        <Failed retry={reload} />
      ) : passkeys.length === 0 ? (
        <p className="hint">{t('security.passkeys.empty')}</p>
      ) : (
        <ul className="invites sessions" aria-labelledby={titleId}>
          {passkeys.map((passkey) => (
            <li key={passkey.id}>
              <span className="session-name">
                <strong>{passkey.name}</strong>
                <span className="hint">
                  {passkey.synced ? t('security.passkeys.synced') : t('security.passkeys.oneDevice')}
                </span>
              </span>
              <span className="session-times hint">
                <time dateTime={passkey.createdAt} title={fullTime(passkey.createdAt, language)}>
                  {t('security.passkeys.created', { when: timeAgo(passkey.createdAt, now, language) })}
                </time>
                {passkey.lastUsedAt ? (
                  <time dateTime={passkey.lastUsedAt} title={fullTime(passkey.lastUsedAt, language)}>
                    {t('security.passkeys.lastUsed', { when: timeAgo(passkey.lastUsedAt, now, language) })}
                  </time>
                ) : (
                  <span>{t('security.passkeys.neverUsed')}</span>
                )}
              </span>
              <span className="invite-actions">
                <button
                  type="button"
                  className="button secondary small"
                  part="button"
                  aria-label={t('security.passkeys.renameLabel', { name: passkey.name })}
                  onClick={() => edit({ kind: 'rename', passkey })}
                >
                  {t('security.passkeys.rename')}
                </button>
                <button
                  type="button"
                  className="button secondary small"
                  part="button"
                  aria-label={t('security.passkeys.removeLabel', { name: passkey.name })}
                  onClick={() => edit({ kind: 'remove', passkey })}
                >
                  {t('security.passkeys.remove')}
                </button>
              </span>
            </li>
          ))}
        </ul>
      )}
      {editing?.kind === 'remove' ? (
        <ConfirmDialog
          open={open}
          title={t('security.passkeys.confirm.title')}
          text={t('security.passkeys.confirm.text', { name: editing.passkey.name })}
          action={t('security.passkeys.confirm.action')}
          onConfirm={() => remove(editing.passkey)}
          onClose={() => setOpen(false)}
          describeError={describeRemoval}
          returnFocus={() => addButton.current ?? heading.current}
        />
      ) : editing ? (
        <PasskeyNameDialog
          open={open}
          title={
            editing.kind === 'add' ? t('security.passkeys.addTitle') : t('security.passkeys.renameTitle')
          }
          submitLabel={
            editing.kind === 'add' ? t('security.passkeys.addSubmit') : t('security.passkeys.renameSubmit')
          }
          initial={editing.kind === 'add' ? firstName : editing.passkey.name}
          save={(name) => (editing.kind === 'add' ? add(name) : rename(editing.passkey, name))}
          onClose={() => setOpen(false)}
          returnFocus={() => addButton.current ?? heading.current}
        />
      ) : null}
    </section>
  );
}
