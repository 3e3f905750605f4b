import { expect } from 'chai';
import { listText, sentenceList } from '../../../src/i18n/list';

/** Lists joined as each language joins them: Japanese with "、", never with a bare space. */
describe('i18n: lists in the interface’s language', () => {
  it('joins a list shown as a value', () => {
    expect(listText(['管理者', '編集者'], 'ja')).to.equal('管理者、編集者');
    expect(listText(['管理者', '編集者', '承認者'], 'ja')).to.equal('管理者、編集者、承認者');
    expect(listText(['Administrator', 'Editor'], 'en')).to.equal('Administrator, Editor');
    expect(listText(['Administrator', 'Bearbeiter'], 'de')).to.equal('Administrator und Bearbeiter');
    expect(listText(['Owner'], 'en')).to.equal('Owner');
  });

  it('joins a list inside a sentence with the language’s “and”', () => {
    expect(sentenceList(['Administrator', 'Editor'], 'en')).to.equal('Administrator and Editor');
    expect(sentenceList(['A', 'B', 'C'], 'fr')).to.equal('A, B et C');
    expect(sentenceList(['管理者', '編集者'], 'ja')).to.equal('管理者、編集者');
  });
});
