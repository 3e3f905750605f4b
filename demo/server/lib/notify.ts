import type { FastifyRequest } from 'fastify';
import { changedMail, mailBrand } from '../mail/compose';
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
