import { expect } from 'chai';
import { parseLoginPath } from '../../../src/features/login/routes';
import { matchRoute, needsLoginCheck } from '../../../src/portal/routes';

describe('portal route table (spec §2)', () => {
  it('maps each route', () => {
    expect(matchRoute('/login/team')).to.deep.equal({ kind: 'login' });
    expect(matchRoute('/login/acme')).to.deep.equal({ kind: 'login' });
    expect(matchRoute('/login/acme/')).to.deep.equal({ kind: 'login' });
    for (const child of ['forgotPassword', 'resetPassword', 'error', 'invite']) {
      expect(matchRoute(`/login/acme/${child}`), child).to.deep.equal({ kind: 'login' });
    }
    expect(matchRoute('/search')).to.deep.equal({ kind: 'search' });
    expect(matchRoute('/consent/abc-123')).to.deep.equal({ kind: 'consent' });
    expect(matchRoute('/consent')).to.deep.equal({ kind: 'redirect', to: '/manage' });
    expect(matchRoute('/setup/Xy_9-token')).to.deep.equal({ kind: 'setup' });
    expect(matchRoute('/setup')).to.deep.equal({ kind: 'redirect', to: '/manage' });
    expect(matchRoute('/signup')).to.deep.equal({ kind: 'signup' });
    expect(matchRoute('/signup/')).to.deep.equal({ kind: 'signup' });
    expect(matchRoute('/signup/x')).to.deep.equal({ kind: 'redirect', to: '/manage' });
    expect(matchRoute('/manage/email', '', '?change=c&undo=u')).to.deep.equal({ kind: 'emailLink' });
    expect(matchRoute('/manage/email')).to.deep.equal({ kind: 'manage', section: 'email' });
    for (const section of ['', 'user', 'team', 'group', 'dev', 'dev/success', 'qr']) {
      expect(matchRoute(`/manage/${section}`), section).to.deep.equal({ kind: 'manage', section });
    }
    expect(matchRoute('/manage')).to.deep.equal({ kind: 'manage', section: '' });
  });

  it('redirects home/token to the success page with its fragment, and anything else to manage', () => {
    expect(matchRoute('/home/token', '#access_token=a')).to.deep.equal({
      kind: 'redirect',
      to: '/manage/dev/success#access_token=a',
    });
    for (const path of ['/', '/nope', '/manage/nope', '/searching', '/loginx']) {
      expect(matchRoute(path), path).to.deep.equal({ kind: 'redirect', to: '/manage' });
    }
  });
});

describe('portal route table: unknown /login children (spec §2: "anything else redirects to team")', () => {
  it('redirects them to /login/team, keeping the query', () => {
    for (const path of ['/login', '/login/', '/login/acme/nope', '/login/a/b/c', '/login/%E0%A4%A']) {
      expect(matchRoute(path, '', '?ReturnUrl=%2Fmanage%2Fqr'), path).to.deep.equal({
        kind: 'redirect',
        to: '/login/team?ReturnUrl=%2Fmanage%2Fqr',
      });
    }
    expect(matchRoute('/login/acme/nope')).to.deep.equal({ kind: 'redirect', to: '/login/team' });
  });
});

describe('portal login check after a navigation (spec §2)', () => {
  it('checks unless the address has the ReturnUrl query parameter', () => {
    expect(needsLoginCheck({ search: '' })).to.equal(true);
    expect(needsLoginCheck({ search: '?q=ada' })).to.equal(true);
    expect(needsLoginCheck({ search: '?returnurl=%2Fx' }), 'the name is case-sensitive').to.equal(true);
    expect(needsLoginCheck({ search: '?ReturnUrl=%2Fmanage' })).to.equal(false);
    expect(needsLoginCheck({ search: '?max_age=0&ReturnUrl=' })).to.equal(false);
  });
});

describe('login routes', () => {
  it('maps the /login children', () => {
    expect(parseLoginPath('/login/team')).to.deep.equal({ screen: 'team', team: null });
    expect(parseLoginPath('/login/ACME')).to.deep.equal({ screen: 'signin', team: 'acme' });
    expect(parseLoginPath('/login/acme/forgotPassword')).to.deep.equal({
      screen: 'forgotPassword',
      team: 'acme',
    });
    expect(parseLoginPath('/login/acme/resetPassword')).to.deep.equal({
      screen: 'resetPassword',
      team: 'acme',
    });
    expect(parseLoginPath('/login/acme/error')).to.deep.equal({ screen: 'error', team: 'acme' });
    expect(parseLoginPath('/login/acme/invite')).to.deep.equal({ screen: 'invite', team: 'acme' });
  });

  it('sends anything else to the team screen', () => {
    for (const path of ['/login', '/login/acme/nope', '/login/a/b/c', '/login/%E0%A4%A']) {
      expect(parseLoginPath(path), path).to.deep.equal({ screen: 'team', team: null });
    }
  });
});
