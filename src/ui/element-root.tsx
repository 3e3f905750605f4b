import type { i18n } from 'i18next';
import { Suspense, useEffect, useMemo, type ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { useStore } from 'zustand';
import { resolveBrand, themeOf } from '../brands';
import { useElementI18n } from '../i18n/use-element-i18n';
import { preferencesStore } from '../state/preferences';
import { sessionStore } from '../state/session';
import { issuerOf, readRuntimeSettings } from '../state/settings';
import { directionOf } from '../contract/languages';
import { ElementContext, type ElementContextValue } from './element-context';
import { ElementFrame } from './element-frame';
import { emit } from './events';
import { Spinner } from './spinner';

/** The attributes every element has (design §1). */
export interface CommonProps {
  /** Identity server base URL; default: the page's origin. */
  issuer?: string;
  /** intoware | onsight | schenck. */
  brand?: string;
  /** Forces a language. */
  lang?: string;
  /** Where the portal's routes are mounted. */
  basePath?: string;
  /** Set by r2wc: the shadow root the element renders into. */
  container?: HTMLElement | ShadowRoot;
}

/** The element itself, from the container r2wc passes (its shadow root). */
export function hostOf(container: CommonProps['container']): HTMLElement {
  if (container && 'host' in container) return container.host as HTMLElement;
  if (container) return container;
  throw new Error('acct-* element rendered without its container');
}

/** `/a/b/` → `/a/b`; empty or `/` → ''. */
export function normalizeBasePath(value: string | undefined): string {
  const trimmed = (value ?? '').trim().replace(/\/+$/, '');
  if (!trimmed) return '';
  return trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}

/**
 * The themed root (`part="root"`, with the element's `lang` and `dir`, brand and theme) and what the screens read
 * from it: the element context and the language's i18next instance for `useTranslation()`. Until the
 * instance is there (the language chunk is loading) it shows a spinner. `ElementRoot` resolves both from
 * the element; component tests give their own.
 */
export function ElementShell({
  context,
  i18n,
  children,
}: {
  context: ElementContextValue;
  i18n: i18n | null;
  children: ReactNode;
}) {
  return (
    <div
      className="acct-root"
      part="root"
      lang={context.language}
      // The element's own direction, whatever the host page's: an Arabic element on an English page
      // mirrors, an English one on an Arabic page does not.
      dir={directionOf(context.language)}
      data-brand={context.brand.id}
      data-theme={context.theme}
      aria-busy={!i18n}
    >
      {i18n ? (
        <I18nextProvider i18n={i18n}>
          <ElementContext.Provider value={context}>
            {/* Lazily loaded screens show the frame while their chunk arrives. */}
            <Suspense fallback={<ElementFrame />}>{children}</Suspense>
          </ElementContext.Provider>
        </I18nextProvider>
      ) : (
        <div className="frame">
          <Spinner />
        </div>
      )}
    </div>
  );
}

/**
 * The root of every element: resolves the common attributes against the page's runtime settings, starts
 * the shared session, loads the language, and renders the element's shell with them.
 */
export function ElementRoot({ props, children }: { props: CommonProps; children: ReactNode }) {
  const host = hostOf(props.container);
  const settings = readRuntimeSettings(host.ownerDocument);
  const issuer = issuerOf(props.issuer, settings);
  const brand = resolveBrand(props.brand ?? settings.brand);
  const darkMode = useStore(preferencesStore, (state) => state.darkMode);
  const theme = themeOf(brand, darkMode);
  const basePath = normalizeBasePath(props.basePath ?? settings.basePath);
  const { i18n, language } = useElementI18n(props.lang);

  useEffect(() => {
    void sessionStore.getState().configure(issuer);
  }, [issuer]);

  const context = useMemo<ElementContextValue>(
    () => ({
      host,
      issuer,
      brand,
      theme,
      basePath,
      language,
      settings,
      emit: (type, detail) => emit(host, type, detail),
    }),
    [host, issuer, brand, theme, basePath, language, settings],
  );

  return (
    <ElementShell context={context} i18n={i18n}>
      {children}
    </ElementShell>
  );
}
