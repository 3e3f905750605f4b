import { expect } from 'chai';
import { pathUnderBase, resolvePath } from '../../../src/ui/router';

describe('ui/router resolvePath', () => {
  it('resolves relative links against the current path as a folder', () => {
    expect(resolvePath('forgotPassword', '/login/acme').path).to.equal('/login/acme/forgotPassword');
    expect(resolvePath('../', '/login/acme/resetPassword').path).to.equal('/login/acme/');
    expect(resolvePath('../forgotPassword', '/login/acme/resetPassword').path).to.equal(
      '/login/acme/forgotPassword',
    );
    expect(resolvePath('/manage', '/login/acme').path).to.equal('/manage');
    expect(resolvePath('/search?q=a b', '/').search).to.equal('?q=a%20b');
  });
});

describe('ui/router pathUnderBase', () => {
  it('matches the base path on whole segments only', () => {
    expect(pathUnderBase('/accounts', '/accounts')).to.equal('/');
    expect(pathUnderBase('/accounts/', '/accounts')).to.equal('/');
    expect(pathUnderBase('/accounts/login/team', '/accounts')).to.equal('/login/team');
    expect(pathUnderBase('/accountsX', '/accounts')).to.equal(null);
    expect(pathUnderBase('/accountsX/login/team', '/accounts')).to.equal(null);
    expect(pathUnderBase('/other/accounts/login', '/accounts')).to.equal(null);
    expect(pathUnderBase('/login/team', '')).to.equal('/login/team');
  });
});
