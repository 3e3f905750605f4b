import type { i18n } from 'i18next';
import { useEffect, useState } from 'react';
import { useStore } from 'zustand';
import { preferencesStore } from '../state/preferences';
import { instanceNow, loadLanguage, loadLanguageToSwitch } from './instance';
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
 *
 * A change of language on screen (the attribute, the header's menu) shows the new language once its
 * chunk and the text parts in use are in; until then the element stays in the one it shows, so its
 * screen is not replaced by a spinner and keeps what it holds.
 */
export function useElementI18n(langAttribute?: string | null): ElementI18n {
  const pageLanguage = useStore(preferencesStore, (state) => state.language);
  const pageLanguageKnown = useStore(preferencesStore, (state) => state.languageKnown);
  const attribute = matchLanguage(langAttribute);
  const language = attribute ?? pageLanguage;
  // Without a `lang` attribute, nothing is shown in the browser's language while the stored choice is
  // still being read: it could be another one.
  const waiting = !attribute && !pageLanguageKnown;
  const [shown, setShown] = useState<{ language: Language; i18n: i18n } | null>(() => {
    const instance = waiting ? null : instanceNow(language);
    return instance && { language, i18n: instance };
  });
  // Ask for the chunk during the first render already (the request is shared with the effect below), so
  // it downloads while React finishes mounting.
  if (!instanceNow(language)) void loadLanguage(language).catch(() => undefined);

  // A first language needs only its chunk: the screen asks for its parts as it renders.
  const switching = shown !== null;
  useEffect(() => {
    if (waiting) return;
    let live = true;
    (switching ? loadLanguageToSwitch : loadLanguage)(language).then(
      // Already rendered with this instance (it was loaded at the first render): no second render.
      (instance) =>
        live &&
        setShown((current) =>
          current?.language === language && current.i18n === instance
            ? current
            : { language, i18n: instance },
        ),
      // The element stays as it is: in the language it shows, or its spinner.
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [language, waiting, switching]);

  if (waiting) return { i18n: null, language };
  if (shown && shown.language !== language) return shown;
  return { i18n: shown?.i18n ?? instanceNow(language), language };
}
