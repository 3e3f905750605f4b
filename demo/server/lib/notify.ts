import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { Config } from '../config';
import type { Repositories } from '../db/repositories';
import { changedMail, mailBrand, noticeMail, type MailBrand, type NoticeKind } from '../mail/compose';
import { matchLanguage, type Language } from '../../../src/contract/languages';
import { answerLanguage } from './language';
import type { Mailer, OutgoingMail } from './mailer';

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

/** Who an owner's mail is written for: their language, their team's brand, their name and team's. */
export interface OwnerMailFor {
  language: Language;
  brand: MailBrand;
  name: string;
  team: string;
}

/**
 * Mails each owner of the team (not disabled), in their language, what `compose` writes for them — for
 * the server's own findings no request waits on (a domain lost, an endpoint disabled). A mail that
 * cannot be sent is logged.
 */
export async function mailOwners(
  deps: { config: Config; repos: Repositories; mailer: Mailer; log: FastifyBaseLogger },
  teamId: string,
  compose: (owner: OwnerMailFor) => Omit<OutgoingMail, 'to'>,
): Promise<void> {
  const { config, repos, mailer, log } = deps;
  for (const owner of await repos.users.ownerMailAccounts(teamId)) {
    const mail = compose({
      language: matchLanguage(owner.language) ?? 'en',
      brand: mailBrand(owner.brand ?? config.brand),
      name: owner.name,
      team: owner.display_name,
    });
    await mailer
      .send({ to: owner.email, ...mail })
      .catch((error: unknown) => log.error({ err: error, to: owner.email }, 'mail not sent'));
  }
}
