/**
 * Concrete addresses for the router's parametric routes (and routes that need a query), for the tests
 * that call every route (auth-hook, forgery): a new parametric route goes here.
 */
export const ROUTE_PARAMS: Record<string, string> = {
  '/account/:provider': '/account/google',
  '/account/:provider/start': '/account/google/start',
  '/api/external/:provider': '/api/external/Google',
  '/api/user/password/:provider': '/api/user/password/Google',
  '/api/team/invitations/:id/resend': '/api/team/invitations/x/resend',
  '/api/team/invitations/:id': '/api/team/invitations/x',
  '/api/team/members/:id': '/api/team/members/x',
  '/api/team/members/:id/unlock': '/api/team/members/x/unlock',
  '/api/team/groups/:id': '/api/team/groups/x',
  '/api/team/groups/:id/members/:userId': '/api/team/groups/x/members/y',
  '/api/team/apps/:clientId': '/api/team/apps/x',
  '/api/team/apps/:clientId/secret': '/api/team/apps/x/secret',
  '/api/team/domains/:domain': '/api/team/domains/x.test',
  '/api/team/domains/:domain/verify': '/api/team/domains/x.test/verify',
  '/api/user/passkeys/:id': '/api/user/passkeys/x',
  '/api/user/sessions/:id': '/api/user/sessions/x',
  '/api/oidc/consent/:uid': '/api/oidc/consent/x',
  '/api/user/apps/:id': '/api/user/apps/x',
  '/oidc/*': '/oidc/token',
  '/api/search': '/api/search?q=x',
  '/api/team/connections/:id': '/api/team/connections/x',
  '/api/team/connections/:id/test': '/api/team/connections/x/test',
  '/saml/:id/acs': '/saml/x/acs',
};
