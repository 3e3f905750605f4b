import { expect } from 'chai';
import { ADMIN_SECTIONS, MANAGE_PATHS, MANAGE_SCREENS } from '../../../../src/features/manage/routes';
import { findScreens, fold } from '../../../../src/features/search/find-screens';
import { withManageTexts } from '../../render';
import { LANGUAGES } from '../../../../src/contract/languages';

const paths = (found: ReadonlyArray<{ path: string }>) => found.map((screen) => screen.path);

describe('search: the manage screens it finds', () => {
  it('indexes every manage route (the route table), so a new screen cannot be left out', () => {
    const routes = ['/manage', ...MANAGE_PATHS.filter((p) => p !== 'dev/success').map((p) => `/manage/${p}`)];
    expect(paths(MANAGE_SCREENS)).to.have.members(routes);
    expect(MANAGE_SCREENS.filter((screen) => screen.admin).map((screen) => screen.section)).to.have.members([
      ...ADMIN_SECTIONS,
    ]);
  });

  for (const language of LANGUAGES) {
    it(`finds every manage screen by its heading and its navigation label (${language})`, async () => {
      const { t } = await withManageTexts(language);
      for (const screen of MANAGE_SCREENS) {
        for (const key of [screen.heading, screen.nav]) {
          expect(paths(findScreens(MANAGE_SCREENS, t(key), t, true)), `${language} ${key}`).to.include(
            screen.path,
          );
        }
        // Every word listed for it finds it, and there are some.
        const words = t(screen.words).split(/[,、，،]/);
        expect(words.length, `${language} ${screen.words}`).to.be.greaterThan(1);
        for (const word of words)
          expect(paths(findScreens(MANAGE_SCREENS, word, t, true)), `${language} ${word}`).to.include(
            screen.path,
          );
      }
    });
  }

  it('finds the newer screens by the words people search for', async () => {
    const { t } = await withManageTexts('en');
    const find = (q: string, admin = false) => paths(findScreens(MANAGE_SCREENS, q, t, admin));
    expect(find('passkeys')).to.include('/manage/security');
    expect(find('password')).to.include('/manage');
    expect(find('sessions')).to.include('/manage/sessions');
    expect(find('security')).to.include.members(['/manage/security', '/manage/activity']);
    expect(find('e-mail')).to.include('/manage/email');
    expect(find('delete')).to.include('/manage/leave');
    expect(find('two step')).to.include('/manage/security');
    expect(find('Recovery')).to.include('/manage/security');
    expect(find('Groups', true)).to.include('/manage/group');
    expect(find('Group management', true)).to.include('/manage/group');
  });

  it('offers the team screens to team admins only', async () => {
    const { t } = await withManageTexts('en');
    expect(paths(findScreens(MANAGE_SCREENS, 'groups', t, false))).to.deep.equal([]);
    expect(paths(findScreens(MANAGE_SCREENS, '', t, true))).to.deep.equal([]);
  });

  it('folds case, accents, spaces and punctuation', () => {
    expect(fold('E-Mail-Adresse')).to.equal('emailadresse');
    expect(fold('Clés d’accès')).to.equal('clesdacces');
    expect(fold('メール アドレス')).to.equal(fold('メールアドレス'));
  });
});
