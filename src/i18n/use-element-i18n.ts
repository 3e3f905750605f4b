import type { i18n } from 'i18next';
import { useEffect, useState } from 'react';
import { useStore } from 'zustand';
import { preferencesStore } from '../state/preferences';
import { instanceNow, loadLanguage } from './instance';
import { matchLanguage, type Language } from '../contract/languages';

export interface ElementI18n {
  /** The language's i18next instance; null until its chunk has loaded. */
  i18n: i18n | null;
  language: Language;
}

/**
 * The i18next instance for an element: its `lang` attribute when it names a supported language,
 * otherwise the page's language preference (once known). Re-renders when either changes and when the
 * chunk arrives. The element root provides it to the screens (`useTranslation()` from react-i18next).
 */
export function useElementI18n(langAttribute?: string | null): ElementI18n {
  const pageLanguage = useStore(preferencesStore, (state) => state.language);
  const pageLanguageKnown = useStore(preferencesStore, (state) => state.languageKnown);
  const attribute = matchLanguage(langAttribute);
  const language = attribute ?? pageLanguage;
  // Without a `lang` attribute, nothing is shown in the browser's language while the stored choice is
  // still being read: it could be another one.
  const waiting = !attribute && !pageLanguageKnown;
  const [loaded, setLoaded] = useState<{ language: Language; i18n: i18n } | null>(() => {
    const instance = instanceNow(language);
    return instance && { language, i18n: instance };
  });
  // Ask for the chunk during the first render already (the request is shared with the effect below), so
  // it downloads while React finishes mounting.
  if (!instanceNow(language)) void loadLanguage(language).catch(() => undefined);

  useEffect(() => {
    let live = true;
    loadLanguage(language).then(
      // Already rendered with this instance (it was loaded at the first render): no second render.
      (instance) =>
        live &&
        setLoaded((current) =>
          current?.language === language && current.i18n === instance
            ? current
            : { language, i18n: instance },
        ),
      () => live && setLoaded(null),
    );
    return () => {
      live = false;
    };
  }, [language]);

  const instance = waiting ? null : loaded?.language === language ? loaded.i18n : instanceNow(language);
  return { i18n: instance, language };
}
