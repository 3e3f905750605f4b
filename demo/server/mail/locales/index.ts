import da from './da.json';
import de from './de.json';
import en from './en.json';
import es from './es.json';
import fr from './fr.json';
import ja from './ja.json';
import pt from './pt.json';
import ar from './ar.json';
import it from './it.json';
import nl from './nl.json';
import pl from './pl.json';
import sv from './sv.json';
import nb from './nb.json';
import fi from './fi.json';
import cs from './cs.json';
import tr from './tr.json';
import uk from './uk.json';
import zhHans from './zh-Hans.json';
import ko from './ko.json';
import he from './he.json';

/** The server's texts by language (mail/texts.ts types them): a new language is its file and a line here. */
export const SERVER_LOCALES = {
  en,
  fr,
  es,
  pt,
  de,
  ja,
  da,
  ar,
  it,
  nl,
  pl,
  sv,
  nb,
  fi,
  cs,
  tr,
  uk,
  'zh-Hans': zhHans,
  ko,
  he,
};
