import { expect } from 'chai';
import { resolvePath } from '../../../src/ui/router';

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
