import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useTextPart } from '../../i18n/parts';
import { useStore } from 'zustand';
import { getPermissions } from '../../api/endpoints';
import { searchMembers, type FoundMember } from '../../api/search';
import { sessionStore } from '../../state/session';
import { Alert } from '../../ui/alert';
import { Link, useRouter, useSearchParam } from '../../ui/router';
import { Spinner } from '../../ui/spinner';
import { findScreens, type SearchableScreen } from './find-screens';
import '../../styles/screens-sheet';

/** The answer for one query (and try): while there is none for the query on screen, it is loading. */
type Members = { key: string; status: 'ready'; members: FoundMember[] } | { key: string; status: 'failed' };

/** How long typing pauses before the members are asked for: one request per word, not per key. */
const TYPING_PAUSE_MS = 250;

/**
 * The search page (spec §2): the manage screens (`screens`, the manage area's table given by the
 * portal) whose titles or words hold the query and, for team admins, the
 * team's members whose name or address starts with it (the server decides who may see them). The page
 * is open to all; a signed-out visitor with a query is offered the sign-in, back to the same search.
 * Typing updates /search?q=… (replacing the history entry, so Back leaves the page).
 */
export default function SearchPage({ screens: index = [] }: { screens?: readonly SearchableScreen[] }) {
  const { t, i18n } = useTranslation();
  const router = useRouter();
  const query = useSearchParam('q') ?? '';
  const trimmed = query.trim();
  const input = useRef<HTMLInputElement>(null);
  const status = useStore(sessionStore, (state) => state.status);
  // Whether the admin screens are offered (null until known). Without an answer they are not: the
  // server still decides whose members a search shows.
  const [admin, setAdmin] = useState<boolean | null>(null);
  const [members, setMembers] = useState<Members | null>(null);
  const [attempt, setAttempt] = useState(0);
  const signedIn = status === 'loggedIn';
  // The screens' titles and words are the manage area's texts.
  const texts = useTextPart('manage');

  useEffect(() => {
    input.current?.focus();
  }, []);

  useEffect(() => {
    if (!signedIn) return;
    let live = true;
    sessionStore
      .getState()
      .authorized((ctx) => getPermissions(ctx), i18n.language)
      .then(
        (permissions) => live && setAdmin(!!(permissions.OWNER || permissions.ADMIN)),
        () => live && setAdmin(false),
      );
    return () => {
      live = false;
    };
  }, [signedIn, i18n.language]);

  useEffect(() => {
    // Only a team admin's search finds members: a member's would be a call answered with nothing.
    if (!signedIn || !trimmed || admin !== true) return;
    const controller = new AbortController();
    const key = `${attempt}:${trimmed}`;
    const timer = setTimeout(() => {
      sessionStore
        .getState()
        .authorized((ctx) => searchMembers(ctx, trimmed.slice(0, 100), controller.signal), i18n.language)
        .then(
          (found) => setMembers({ key, status: 'ready', members: found.members }),
          () => {
            if (!controller.signal.aborted) setMembers({ key, status: 'failed' });
          },
        );
    }, TYPING_PAUSE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [signedIn, trimmed, attempt, i18n.language, admin]);

  const screens = trimmed && admin !== null && texts === 'ready' ? findScreens(index, trimmed, t, admin) : [];
  // Only the answer for the query on screen counts: an older one is not shown under a newer query.
  const current: Members | { status: 'loading' } =
    texts === 'loading'
      ? { status: 'loading' }
      : admin === false
        ? { key: '', status: 'ready', members: [] }
        : signedIn && admin && members?.key === `${attempt}:${trimmed}`
          ? members
          : { status: 'loading' };
  const found = current.status === 'ready' ? current.members : [];

  return (
    <div className="page stack">
      <h1 className="title">{t('search.title')}</h1>
      <form role="search" className="search-form" onSubmit={(event) => event.preventDefault()}>
        <label htmlFor="search-input" className="visually-hidden">
          {t('search.label')}
        </label>
        <input
          ref={input}
          id="search-input"
          type="search"
          part="input"
          value={query}
          maxLength={100}
          placeholder={t('search.placeholder')}
          onChange={(event) => {
            const q = event.target.value;
            router.navigate(q ? `/search?${new URLSearchParams({ q })}` : '/search', { replace: true });
          }}
        />
      </form>
      {!trimmed ? (
        <p>{t('search.prompt')}</p>
      ) : status === 'loggedOut' ? (
        // The page is open to all; what it finds is for a signed-in user, who comes back to this search.
        <section className="panel">
          <p>{t('manage.signedOut')}</p>
          <Link
            to={`/login/team?${new URLSearchParams({ ReturnUrl: `/search?${new URLSearchParams({ q: trimmed })}` })}`}
            className="button"
            part="button"
          >
            {t('manage.signIn')}
          </Link>
        </section>
      ) : (
        <>
          {screens.length > 0 ? (
            <section className="panel" aria-labelledby="search-screens">
              <h2 className="panel-title" id="search-screens">
                {t('search.screens')}
              </h2>
              <ul className="providers-list">
                {screens.map((screen) => (
                  <li key={screen.path}>
                    <Link to={screen.path} className="link">
                      {t(screen.heading)}
                    </Link>
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
          {found.length > 0 ? (
            <section className="panel" aria-labelledby="search-members">
              <h2 className="panel-title" id="search-members">
                {t('search.members')}
              </h2>
              <ul className="providers-list">
                {found.map((member) => (
                  <li key={member.id}>
                    <Link to={`/manage/user?${new URLSearchParams({ q: member.email })}`} className="link">
                      <span className="user-name">{member.name}</span>
                    </Link>
                    <span>{member.email}</span>
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
          {current.status === 'loading' ? (
            <div className="loading" role="status">
              <Spinner />
              <span>{t('search.searching', { query: trimmed })}</span>
            </div>
          ) : current.status === 'failed' ? (
            <section className="panel">
              <Alert tone="error">{t('common.failed')}</Alert>
              <button
                className="button secondary"
                part="button"
                type="button"
                onClick={() => setAttempt((n) => n + 1)}
              >
                {t('common.retry')}
              </button>
            </section>
          ) : screens.length === 0 && found.length === 0 ? (
            <p role="status">{t('search.none', { query: trimmed })}</p>
          ) : null}
        </>
      )}
    </div>
  );
}
