/**
 * The React-only login floor: the very form `<acct-login team="acme">` shows (intoware brand, light, in
 * English) — the logo, the heading, the three provider forms, the divider, the e-mail and password fields
 * with the first one focused, Continue and the two links — with the same markup and the same stylesheet
 * in a shadow root, rendered with React alone: no custom element, no i18n, no stores, no team lookup (it
 * knows the team's options). Built with the bundle's own rollup settings. The sign-in page's bytes and
 * time are reported as ratios to this (design.md §5; docs/decisions/bench-same-form-floor.md). What the page pays beyond it is what the elements cost: the element, its language, its team
 * lookup, its stores and the rest of the bundle.
 */
import { useState } from 'react';
import { createRoot } from 'react-dom/client';
import { IntowareMark, IntowareWordmark } from '../../../src/brands/logos';
import { elementCss } from '../../../src/styles/sheet';

const PROVIDERS = [
  ['google', 'Sign in with Google'],
  ['azure', 'Sign in with Microsoft'],
  ['auth0', 'Sign in with Acme SSO'],
] as const;

function FloorLogin({ issuer }: { issuer: string }) {
  const [busy, setBusy] = useState(false);
  return (
    <div className="acct-root" lang="en" data-brand="intoware" data-theme="light">
      <div className="frame">
        <div className="card stack">
          <div className="brand">
            <IntowareMark />
            <IntowareWordmark label="Intoware" />
          </div>
          <h1 className="title">Sign in to Acme</h1>
          <div className="stack providers">
            {PROVIDERS.map(([id, label]) => (
              <form key={id} method="post" action={`${issuer}/account/${id}`}>
                <input type="hidden" name="__RequestVerificationToken" value="" />
                <input type="hidden" name="teamName" value="acme" />
                <input type="hidden" name="returnUrl" value="" />
                <input type="hidden" name="maxAge" value="" />
                <button className={`button secondary block provider provider-${id}`} type="submit">
                  {label}
                </button>
              </form>
            ))}
          </div>
          <div className="divider" role="separator">
            <span>or</span>
          </div>
          <form
            className="stack"
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              setBusy(true);
            }}
          >
            <fieldset disabled={busy}>
              <div className="field">
                <label htmlFor="email">Email</label>
                <input id="email" name="email" type="email" autoComplete="username" autoFocus />
              </div>
              <div className="field">
                <label htmlFor="password">Password</label>
                <input id="password" name="password" type="password" autoComplete="current-password" />
              </div>
              <button className="button block" type="submit">
                Continue
              </button>
            </fieldset>
          </form>
          <a className="link" href="/login/acme/forgotPassword">
            Forgot your password?
          </a>
          <a className="link" href="/login/team">
            Use a different team
          </a>
        </div>
      </div>
    </div>
  );
}

// The page says where the provider forms post, as `<acct-login issuer>` does.
const host = document.getElementById('floor');
if (host) {
  const root = host.attachShadow({ mode: 'open' });
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(elementCss());
  root.adoptedStyleSheets = [sheet];
  createRoot(root).render(<FloorLogin issuer={host.dataset.issuer ?? ''} />);
}
