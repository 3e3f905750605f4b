import type { FastifyRequest } from 'fastify';
import { changedMail, mailBrand, noticeMail, type NoticeKind } from '../mail/compose';
import { matchLanguage } from '../../../src/contract/languages';
import { answerLanguage } from './language';
import type { OutgoingMail } from './mailer';

/** Send mail without making the answer wait on (or fail with) the mail server. */
export function sendInBackground(request: FastifyRequest, mail: OutgoingMail): void {
  request.server.services.mailer
    .send(mail)
    .catch((error: unknown) => request.log.error({ err: error, to: mail.to }, 'mail not sent'));
}

export interface Account {
  name: string;
  email: string;
  language: string | null;
  display_name: string;
  brand: string | null;
}

/** The 'your password was changed' notice, after a reset or a change. */
export function notifyPasswordChanged(request: FastifyRequest, account: Account, when: number): void {
  const { config } = request.server.services;
  const mail = changedMail({
    language: answerLanguage(request, account.language),
    brand: mailBrand(account.brand ?? config.brand),
    name: account.name,
    team: account.display_name,
    when: new Date(when),
  });
  sendInBackground(request, { to: account.email, ...mail });
}

/**
 * A notice about the user's sign-in security (two-step on or off, a recovery code used, a passkey
 * added), in their language, in the background. A user gone meanwhile gets none.
 */
export async function notifySecurity(
  request: FastifyRequest,
  userId: string,
  kind: NoticeKind,
  extra: { left?: number; passkey?: string } = {},
): Promise<void> {
  const { config, repos, clock } = request.server.services;
  const account = await repos.users.findMailAccount(userId);
  if (!account) return;
  const mail = noticeMail({
    // The user's own language first: the notice may follow a call made from someone else's browser.
    language: matchLanguage(account.language) ?? answerLanguage(request),
    brand: mailBrand(account.brand ?? config.brand),
    name: account.name,
    team: account.display_name,
    when: new Date(clock.now()),
    kind,
    ...extra,
  });
  sendInBackground(request, { to: account.email, ...mail });
}
