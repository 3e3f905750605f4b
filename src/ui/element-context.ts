import { createContext, useContext } from 'react';
import type { Brand } from '../brands';
import type { Language } from '../contract/languages';
import type { RuntimeSettings } from '../state/settings';
import type { ThemeName } from '../contract/tokens';
import type { AcctEventDetails, AcctEventName } from './events';

/** What every screen needs to know about the element it is rendered in. */
export interface ElementContextValue {
  /** The custom element itself (events are dispatched from it). */
  host: HTMLElement;
  /** The identity server's base URL, absolute, without a trailing slash. */
  issuer: string;
  brand: Brand;
  theme: ThemeName;
  /** Where the portal's routes are mounted ('' for the root). */
  basePath: string;
  /** The element's language (for Intl dates and lists; texts come from `useTranslation()`). */
  language: Language;
  settings: RuntimeSettings;
  emit<K extends AcctEventName>(type: K, detail: AcctEventDetails[K]): boolean;
}

export const ElementContext = createContext<ElementContextValue | null>(null);

export function useElement(): ElementContextValue {
  const value = useContext(ElementContext);
  if (!value) throw new Error('useElement() must be used inside an acct-* element');
  return value;
}
