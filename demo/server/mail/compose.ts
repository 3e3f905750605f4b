import { BRAND_NAMES, type BrandId } from '../../../src/contract/brand-names';
import type { Language } from '../../../src/contract/languages';
import { PALETTES } from '../../../src/contract/tokens';
import { serverText, type TextKey } from './texts';

export interface MailBrand {
  name: string;
  primary: string;
  onPrimary: string;
}

export function mailBrand(id: string): MailBrand {
  const brand = (id in BRAND_NAMES ? id : 'intoware') as BrandId;
  const palette = PALETTES[brand].light;
  return { name: BRAND_NAMES[brand], primary: palette.primary, onPrimary: palette.onPrimary };
}

const escape = (value: string) =>
  value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');

function html(
  language: Language,
  brand: MailBrand,
  paragraphs: string[],
  action?: { label: string; href: string },
  after: string[] = [],
): string {
  const para = (list: string[]) => list.map((p) => `<p style="margin:0 0 16px">${escape(p)}</p>`).join('');
  const body = para(paragraphs);
  const button = action
    ? `<p style="margin:24px 0"><a href="${escape(action.href)}" style="display:inline-block;padding:12px 20px;border-radius:6px;background:${brand.primary};color:${brand.onPrimary};font-weight:600;text-decoration:none">${escape(action.label)}</a></p><p style="margin:0 0 16px;font-size:13px;color:#4f5b6b;word-break:break-all">${escape(action.href)}</p>`
    : '';
  const footer = serverText(language, 'footer', { brand: brand.name });
  return `<!doctype html><html lang="${language}"><body style="margin:0;padding:24px;background:#f4f6f9;font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#1b2430;line-height:1.5"><div style="max-width:560px;margin:0 auto;background:#fff;border:1px solid #d5dae1;border-radius:8px;padding:24px"><p style="margin:0 0 24px;font-size:20px;font-weight:700;color:${brand.primary}">${escape(brand.name)}</p>${body}${button}${para(after)}<p style="margin:24px 0 0;font-size:12px;color:#4f5b6b">${escape(footer)}</p></div></body></html>`;
}

/** A date and time as the mail's language writes it, in UTC (the server knows no reader's time zone). */
const formatDate = (language: Language, when: Date) =>
  new Intl.DateTimeFormat(language, { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(when);

type LinkMailKind = 'reset' | 'invite' | 'setup' | 'emailConfirm' | 'joinApproved';

/**
 * A mail that carries a one-time link: greeting and body, the link's button, then when it expires and
 * what to do if it was not asked for.
 */
function linkMail(
  language: Language,
  brand: MailBrand,
  kind: LinkMailKind,
  values: Record<string, string | number>,
  link: string,
) {
  const t = (key: TextKey) => serverText(language, key, values);
  const lines = [t(`${kind}.greeting`), t(`${kind}.body`), t(`${kind}.expiry`), t(`${kind}.ignore`)];
  const action = t(`${kind}.action`);
  return {
    subject: t(`${kind}.subject`),
    text: `${lines[0]}\n\n${lines[1]}\n\n${action}:\n${link}\n\n${lines[2]}\n${lines[3]}\n\n-- \n${t('footer')}\n`,
    html: html(language, brand, lines.slice(0, 2), { label: action, href: link }, lines.slice(2)),
    link,
  };
}

export interface ResetMailInput {
  language: Language;
  brand: MailBrand;
  name: string;
  team: string;
  link: string;
}

/** The password reset mail: text and HTML, in the user's language, dressed in the team's brand. */
export function resetMail({ language, brand, name, team, link }: ResetMailInput) {
  return linkMail(language, brand, 'reset', { brand: brand.name, name, team }, link);
}

export interface EmailCodeMailInput {
  language: Language;
  brand: MailBrand;
  name: string;
  team: string;
  /** The six digits, shown large and first in the subject (a phone's notification shows it). */
  code: string;
  link: string;
}

/** The notes under the button of a mail that carries a code and its link (each a text of the kind). */
type CodeMailKind =
  | { kind: 'emailCode'; notes: ['expiry', 'browser', 'ignore'] }
  | { kind: 'signUp'; notes: ['expiry', 'ignore'] };

/**
 * A mail with a six-digit code and its one-click link: the greeting, the sentence that introduces the
 * code, the code (large, and first in the subject), the button, then the notes.
 */
function codeMail({ kind, notes }: CodeMailKind, input: EmailCodeMailInput) {
  const { language, brand, name, team, code, link } = input;
  const t = (key: TextKey) => serverText(language, key, { brand: brand.name, name, team, code });
  const [greeting, body, action] = [t(`${kind}.greeting`), t(`${kind}.body`), t(`${kind}.action`)];
  const lines = notes.map((note) => t(`${kind}.${note}` as TextKey));
  const codeHtml = `<p style="margin:0 0 16px;font-size:28px;font-weight:700;letter-spacing:6px;font-family:ui-monospace,Menlo,Consolas,monospace">${code}</p>`;
  const page = html(language, brand, [greeting, body], { label: action, href: link }, lines);
  return {
    subject: t(`${kind}.subject`),
    text: `${greeting}\n\n${body}\n\n    ${code}\n\n${action}:\n${link}\n\n${lines.join('\n')}\n\n-- \n${t('footer')}\n`,
    // The code goes right after the paragraph that introduces it (digits only: nothing to escape).
    html: page.replace(`${escape(body)}</p>`, `${escape(body)}</p>${codeHtml}`),
    link,
  };
}

/**
 * The sign-in code mail: the code, then the one-click link (which signs in only in the browser that
 * asked), when both expire, and what to do if it was not asked for.
 */
export function emailCodeMail(input: EmailCodeMailInput) {
  return codeMail({ kind: 'emailCode', notes: ['expiry', 'browser', 'ignore'] }, input);
}

/**
 * The mail that verifies a new team's owner's address (routes/sign-up.ts): the code, the one-click
 * link, when both expire, and what to do if nobody asked. `team` is the new team's name.
 */
export function signUpMail(input: EmailCodeMailInput) {
  return codeMail({ kind: 'signUp', notes: ['expiry', 'ignore'] }, input);
}

export interface ChangedMailInput {
  language: Language;
  brand: MailBrand;
  name: string;
  team: string;
  when: Date;
}

/** The 'your password was changed' notice. */
export function changedMail({ language, brand, name, team, when }: ChangedMailInput) {
  const values = { brand: brand.name, name, team, date: `${formatDate(language, when)} UTC` };
  const t = (key: TextKey) => serverText(language, key, values);
  const lines = [t('changed.greeting'), t('changed.body'), t('changed.warning')];
  return {
    subject: t('changed.subject'),
    text: `${lines.join('\n\n')}\n\n-- \n${t('footer')}\n`,
    html: html(language, brand, lines),
  };
}

export interface InviteMailInput {
  language: Language;
  brand: MailBrand;
  /** Who invites: as the invitee will recognise them. */
  inviter: { name: string; email: string };
  team: string;
  link: string;
  expires: Date;
}

/** The invitation to join a team: text and HTML, in the inviter's language, dressed in the team's brand. */
export function inviteMail({ language, brand, inviter, team, link, expires }: InviteMailInput) {
  const values = {
    brand: brand.name,
    team,
    inviter: inviter.name,
    inviterEmail: inviter.email,
    date: `${formatDate(language, expires)} UTC`,
  };
  return linkMail(language, brand, 'invite', values, link);
}

export interface JoinMailInput {
  language: Language;
  brand: MailBrand;
  /** The name the person gave when asking. */
  name: string;
  team: string;
}

/**
 * The code that verifies the address of a request to join: the code on its own line (and in the
 * subject, so it shows in a notification), in the language of the screen that asked.
 */
export function joinCodeMail({ language, brand, name, team, code }: JoinMailInput & { code: string }) {
  const t = (key: TextKey) => serverText(language, key, { brand: brand.name, name, team, code });
  const lines = [
    t('joinCode.greeting'),
    t('joinCode.body'),
    code,
    t('joinCode.expiry'),
    t('joinCode.ignore'),
  ];
  return {
    subject: t('joinCode.subject'),
    text: `${lines.join('\n\n')}\n\n-- \n${t('footer')}\n`,
    html: html(language, brand, lines),
  };
}

/** A request to join was approved: the invitation link, which works as any invitation's. */
export function joinApprovedMail(input: JoinMailInput & { link: string; expires: Date }) {
  const { language, brand, name, team, link, expires } = input;
  const values = { brand: brand.name, name, team, date: `${formatDate(language, expires)} UTC` };
  return linkMail(language, brand, 'joinApproved', values, link);
}

/** A request to join was declined: a neutral note, which names nobody. */
export function joinDeclinedMail({ language, brand, name, team }: JoinMailInput) {
  const t = (key: TextKey) => serverText(language, key, { brand: brand.name, name, team });
  const lines = [t('joinDeclined.greeting'), t('joinDeclined.body')];
  return {
    subject: t('joinDeclined.subject'),
    text: `${lines.join('\n\n')}\n\n-- \n${t('footer')}\n`,
    html: html(language, brand, lines),
  };
}

export interface SetupMailInput {
  language: Language;
  brand: MailBrand;
  /** The owner who sends it: as the IT contact will recognise them. */
  owner: { name: string; email: string };
  team: string;
  link: string;
  expires: Date;
}

/** A setup link to the company's IT contact: in the owner's language, dressed in the team's brand. */
export function setupMail({ language, brand, owner, team, link, expires }: SetupMailInput) {
  const values = {
    brand: brand.name,
    team,
    owner: owner.name,
    ownerEmail: owner.email,
    date: `${formatDate(language, expires)} UTC`,
  };
  return linkMail(language, brand, 'setup', values, link);
}

/** The sign-in security notices (mail/texts.ts `notice`). */
export type NoticeKind = 'twoStepOn' | 'twoStepOff' | 'recoveryUsed' | 'passkeyAdded';

export interface NoticeMailInput extends ChangedMailInput {
  kind: NoticeKind;
  /** Unused recovery codes left (`recoveryUsed`). */
  left?: number;
  /** The passkey's name (`passkeyAdded`). */
  passkey?: string;
}

/** A notice about the account's sign-in security, in the user's language. */
export function noticeMail({ language, brand, name, team, when, kind, left, passkey }: NoticeMailInput) {
  const values = {
    brand: brand.name,
    name,
    team,
    date: `${formatDate(language, when)} UTC`,
    left: left ?? 0,
    passkey: passkey ?? '',
  };
  const t = (key: TextKey) => serverText(language, key, values);
  const lines = [t('notice.greeting'), t(`notice.${kind}.body`), t('notice.warning')];
  return {
    subject: t(`notice.${kind}.subject`),
    text: `${lines.join('\n\n')}\n\n-- \n${t('footer')}\n`,
    html: html(language, brand, lines),
  };
}

export interface NewDeviceMailInput {
  language: Language;
  brand: MailBrand;
  name: string;
  team: string;
  /** The browser and operating system, as the sessions screen names them. */
  device: string;
  when: Date;
  /** The sessions screen. */
  link: string;
}

/** A sign-in from a browser the account had not used: what, when, and where to end it. */
export function newDeviceMail({ language, brand, name, team, device, when, link }: NewDeviceMailInput) {
  const values = { brand: brand.name, name, team, device, date: `${formatDate(language, when)} UTC` };
  const t = (key: TextKey) => serverText(language, key, values);
  const lines = [t('newDevice.greeting'), t('newDevice.body'), t('newDevice.warning')];
  const action = t('newDevice.action');
  return {
    subject: t('newDevice.subject'),
    text: `${lines[0]}\n\n${lines[1]}\n\n${action}:\n${link}\n\n${lines[2]}\n\n-- \n${t('footer')}\n`,
    html: html(language, brand, lines.slice(0, 2), { label: action, href: link }, lines.slice(2)),
    link,
  };
}

export interface EmailChangeMailInput {
  language: Language;
  brand: MailBrand;
  name: string;
  team: string;
  /** The new address. */
  email: string;
  link: string;
}

/** To the new address: confirm it (the link works once, one hour). */
export function emailConfirmMail({ language, brand, name, team, email, link }: EmailChangeMailInput) {
  return linkMail(language, brand, 'emailConfirm', { brand: brand.name, name, team, email }, link);
}

/** To the old address: what is asked, and the link that undoes it. */
export function emailNoticeMail({ language, brand, name, team, email, link }: EmailChangeMailInput) {
  const values = { brand: brand.name, name, team, email };
  const t = (key: TextKey) => serverText(language, key, values);
  const lines = [t('emailNotice.greeting'), t('emailNotice.body'), t('emailNotice.warning')];
  const action = t('emailNotice.action');
  return {
    subject: t('emailNotice.subject'),
    text: `${lines[0]}\n\n${lines[1]}\n\n${action}:\n${link}\n\n${lines[2]}\n\n-- \n${t('footer')}\n`,
    html: html(language, brand, lines.slice(0, 2), { label: action, href: link }, lines.slice(2)),
    link,
  };
}

export interface DomainLostMailInput {
  language: Language;
  brand: MailBrand;
  name: string;
  team: string;
  domain: string;
  /** The TXT record that would prove the domain again: `name "value"`. */
  record: string;
}

export interface StreamDisabledMailInput {
  language: Language;
  brand: MailBrand;
  name: string;
  team: string;
  /** The endpoint's host (never its whole address: it may carry a key). */
  endpoint: string;
}

/** To an owner: the team's streaming endpoint failed for a day and was turned off. */
export function streamDisabledMail({ language, brand, name, team, endpoint }: StreamDisabledMailInput) {
  const values = { brand: brand.name, name, team, endpoint };
  const t = (key: TextKey) => serverText(language, key, values);
  const lines = [t('streamDisabled.greeting'), t('streamDisabled.body'), t('streamDisabled.again')];
  return {
    subject: t('streamDisabled.subject'),
    text: `${lines.join('\n\n')}\n\n-- \n${t('footer')}\n`,
    html: html(language, brand, lines),
  };
}

/** To an owner: the team's domain is no longer verified (its record stayed missing past the grace). */
export function domainLostMail({ language, brand, name, team, domain, record }: DomainLostMailInput) {
  const values = { brand: brand.name, name, team, domain, record };
  const t = (key: TextKey) => serverText(language, key, values);
  const lines = [t('domainLost.greeting'), t('domainLost.body'), t('domainLost.again')];
  return {
    subject: t('domainLost.subject'),
    text: `${lines.join('\n\n')}\n\n-- \n${t('footer')}\n`,
    html: html(language, brand, lines),
  };
}
