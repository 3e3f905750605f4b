import { useEffect, useState } from 'react';
import { useStore } from 'zustand';
import { preferencesStore } from '../state/preferences';
import { isLoaded, loadTranslator, translatorNow, type Translate } from './index';
import { matchLanguage, type Language } from './languages';

export interface Translation {
  /** Null until the language's chunk has loaded. */
  t: Translate | null;
  language: Language;
}

/**
 * The translator for an element: its `lang` attribute when it names a supported language, otherwise the
 * page's language preference (once known). Re-renders when either changes and when the chunk arrives.
 */
export function useTranslation(langAttribute?: string | null): Translation {
  const pageLanguage = useStore(preferencesStore, (state) => state.language);
  const pageLanguageKnown = useStore(preferencesStore, (state) => state.languageKnown);
  const attribute = matchLanguage(langAttribute);
  const language = attribute ?? pageLanguage;
  // Without a `lang` attribute, nothing is shown in the browser's language while the stored choice is
  // still being read: it could be another one.
  const waiting = !attribute && !pageLanguageKnown;
  const [loaded, setLoaded] = useState<{ language: Language; t: Translate } | null>(() => {
    const t = translatorNow(language);
    return t && { language, t };
  });
  // Ask for the chunk during the first render already (the request is shared with the effect below), so
  // it downloads while React finishes mounting.
  if (!isLoaded(language)) void loadTranslator(language).catch(() => undefined);

  useEffect(() => {
    let live = true;
    loadTranslator(language).then(
      // Already rendered with this translator (it was loaded at the first render): no second render.
      (t) =>
        live &&
        setLoaded((current) =>
          current?.language === language && current.t === t ? current : { language, t },
        ),
      () => live && setLoaded(null),
    );
    return () => {
      live = false;
    };
  }, [language]);

  const t = waiting ? null : loaded?.language === language ? loaded.t : translatorNow(language);
  return { t, language };
}
