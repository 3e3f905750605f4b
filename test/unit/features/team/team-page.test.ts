import { expect } from 'chai';
import i18next, { type TFunction } from 'i18next';
import type { AuditEvent, Invitation } from '../../../../src/api/team';
import { auditSentence, invitationStatus, storageText } from '../../../../src/features/team/format';
import enManage from '../../../../src/i18n/locales/manage/en.json';
import { relativeTime, timeAgo } from '../../../../src/ui/time';
import de from '../../../../src/i18n/locales/admin/de.json';
import en from '../../../../src/i18n/locales/admin/en.json';
import fr from '../../../../src/i18n/locales/admin/fr.json';
import ja from '../../../../src/i18n/locales/admin/ja.json';

const HOUR = 3600_000;
const DAY = 24 * HOUR;

/** The admin part's texts in a language, with i18next's own plural and number handling. */
function translator(language: string, texts: object): TFunction {
  const i18n = i18next.createInstance();
  void i18n.init({
    initAsync: false,
    lng: language,
    resources: { [language]: { translation: texts as Record<string, unknown> } },
    fallbackLng: false,
    interpolation: { escapeValue: false },
  });
  return i18n.t;
}

const NOW = new Date(2026, 10, 27, 10, 0).getTime();
/** An invitation sent `ago` milliseconds before NOW, with the server's seven days. */
const sent = (ago: number): Invitation => ({
  id: 'i',
  email: 'x@example.test',
  permissions: ['EDITOR'],
  sentAt: new Date(NOW - ago).toISOString(),
  expiresAt: new Date(NOW - ago + 7 * DAY).toISOString(),
  invitedBy: null,
});

describe('invitation status (from its times)', () => {
  const t = translator('en', en);
  const status = (ago: number) => invitationStatus(sent(ago), NOW, t, 'en');

  it('reads "Sent" for three days, its time in the one relative style of every screen', () => {
    expect(status(10_000)).to.deep.include({ text: 'Sent this minute', urgent: false });
    expect(status(60_000).text).to.equal('Sent 1 minute ago');
    expect(status(45 * 60_000).text).to.equal('Sent 45 minutes ago');
    expect(status(HOUR + 60_000).text).to.equal('Sent 1 hour ago');
    expect(status(2 * HOUR).text).to.equal('Sent 2 hours ago');
    expect(status(DAY + HOUR).text).to.equal('Sent yesterday');
    expect(status(2 * DAY + 23 * HOUR).text).to.equal('Sent 3 days ago');
    expect(status(2 * HOUR).at).to.equal(sent(2 * HOUR).sentAt);
    // The same words as the sessions, activity and admin-action lists for the same time.
    expect(status(2 * HOUR).text).to.equal(`Sent ${timeAgo(sent(2 * HOUR).sentAt, NOW, 'en')}`);
  });

  it('then when it expires, by calendar date; the last two days and expired ones urgent', () => {
    expect(status(3 * DAY)).to.deep.include({ text: 'Expires in 4 days', urgent: false });
    expect(status(4 * DAY)).to.deep.include({ text: 'Expires in 3 days', urgent: false });
    // Sent 6 days ago at 10:00: it ends tomorrow at 10:00.
    expect(status(6 * DAY)).to.deep.include({ text: 'Expires tomorrow', urgent: true });
    // It ends at 01:00 tomorrow, 15 hours from now: tomorrow by the date, not today.
    expect(status(6 * DAY + 9 * HOUR).text).to.equal('Expires tomorrow');
    // It ends at 23:00 two days from now, 61 hours: two days by the date.
    expect(status(5 * DAY - 13 * HOUR).text).to.equal('Expires in 2 days');
    expect(status(6 * DAY + 11 * HOUR)).to.deep.include({ text: 'Expires today', urgent: true });
    expect(status(7 * DAY)).to.deep.include({ text: 'Expired', urgent: true });
    expect(status(9 * DAY)).to.deep.include({ text: 'Expired', urgent: true });
    expect(status(6 * DAY).at).to.equal(sent(6 * DAY).expiresAt);
  });

  it('speaks each language, with Intl.RelativeTimeFormat’s words', () => {
    const inDe = (ago: number) => invitationStatus(sent(ago), NOW, translator('de', de), 'de').text;
    expect(inDe(2 * HOUR)).to.equal('Gesendet vor 2 Stunden');
    expect(inDe(HOUR)).to.equal('Gesendet vor 1 Stunde');
    expect(inDe(6 * DAY)).to.equal('Läuft morgen ab');
    const inFr = (ago: number) => invitationStatus(sent(ago), NOW, translator('fr', fr), 'fr').text;
    expect(inFr(HOUR)).to.equal('Envoyée il y a 1 heure');
    expect(inFr(4 * DAY)).to.equal('Expire dans 3 jours');
    const inJa = (ago: number) => invitationStatus(sent(ago), NOW, translator('ja', ja), 'ja').text;
    expect(inJa(2 * HOUR)).to.equal('送信: 2 時間前');
  });
});

describe('storage and times, the language’s way', () => {
  const GB = 1000 ** 3;
  it('writes storage in the unit that suits the limit', () => {
    expect(storageText(90 * GB, 100 * GB, 'en')).to.deep.equal({ used: '90', limit: '100 GB' });
    expect(storageText(2.5 * GB, 20 * GB, 'en')).to.deep.equal({ used: '2.5', limit: '20 GB' });
    // German writes a no-break space between the number and its unit.
    expect(storageText(0, 10 * GB, 'de').limit).to.match(/^10\sGB$/);
    const tera = storageText(512 * 1000 ** 3, 2 * 1000 ** 4, 'de');
    expect(tera.used).to.equal('0,5');
    expect(tera.limit).to.match(/^2\sTB$/);
    expect(storageText(300 * 1000 ** 2, 900 * 1000 ** 2, 'fr').limit).to.match(/^900\s?Mo$/);
    expect(storageText(0, 0, 'en')).to.deep.equal({ used: '0', limit: '0 byte' });
  });

  it('says how long ago an admin action was', () => {
    const ago = (ms: number, language = 'en') => timeAgo(new Date(NOW - ms).toISOString(), NOW, language);
    expect(ago(10_000)).to.equal('this minute');
    expect(ago(5 * 60_000)).to.equal('5 minutes ago');
    expect(ago(3 * HOUR)).to.equal('3 hours ago');
    expect(ago(DAY + HOUR)).to.equal('yesterday');
    expect(ago(3 * DAY, 'de')).to.equal('vor 3 Tagen');
    // A time just ahead of this clock (the server's runs ahead) has still happened.
    expect(ago(-20_000)).to.equal('this minute');
  });

  it('has one relative style, past and future, by the date beyond a day', () => {
    const at = (ms: number, language = 'en') => relativeTime(new Date(NOW + ms).toISOString(), NOW, language);
    expect(at(-30_000)).to.equal('this minute');
    expect(at(3 * HOUR)).to.equal('in 3 hours');
    // 10:00 now; 38 hours ahead is 00:00 the day after tomorrow.
    expect(at(38 * HOUR)).to.equal('in 2 days');
    expect(at(-DAY, 'fr')).to.equal('hier');
    expect(at(-5 * 60_000, 'ja')).to.equal('5 分前');
  });
});

describe('an admin action as a sentence: actor, target and change', () => {
  // The permission names are the manage area's texts; the sentences are in the admin part.
  const t = translator('en', { ...enManage, ...en });
  const ada = { id: 'a', name: 'Ada Lovelace', email: 'ada@acme.test' };
  const event = (
    action: AuditEvent['action'],
    target: string,
    detail: AuditEvent['detail'] = {},
    actor: AuditEvent['actor'] = ada,
  ) =>
    auditSentence(
      {
        id: 'e',
        at: new Date(NOW).toISOString(),
        actor,
        action,
        target,
        detail,
        address: null,
        requestId: null,
      },
      'en',
      t,
    );

  it('names the member and the group of a membership, not the group alone', () => {
    expect(
      event('group.memberAdded', 'Platform Engineering', { member: 'bob@acme.test', name: 'Bob Stone' }),
    ).to.equal('Ada Lovelace added Bob Stone to Platform Engineering');
    // An older event, recorded without the name: the address.
    expect(event('group.memberRemoved', 'Platform Engineering', { member: 'bob@acme.test' })).to.equal(
      'Ada Lovelace removed bob@acme.test from Platform Engineering',
    );
  });

  it('says which sign-in options went on and which off, in words', () => {
    expect(event('team.loginOptions', 'google, local', { google: true, local: false })).to.equal(
      'Ada Lovelace turned on Google sign-in and turned off password sign-in',
    );
    expect(event('team.loginOptions', 'requireTwoStep', { requireTwoStep: true })).to.equal(
      'Ada Lovelace turned on required two-step sign-in',
    );
    expect(event('team.loginOptions', 'passkeys', { passkeys: false })).to.equal(
      'Ada Lovelace turned off passkey sign-in',
    );
    expect(event('team.loginOptions', 'emailCode', { emailCode: true })).to.equal(
      'Ada Lovelace turned on email code sign-in',
    );
  });

  it('who started the team, by its name', () => {
    expect(event('team.created', 'Acme')).to.equal('Ada Lovelace created the team Acme');
  });

  it('a member who left, a removal, permissions, the user limit', () => {
    const bob = { id: 'b', name: 'Bob Stone', email: 'bob@acme.test' };
    expect(event('member.removed', 'bob@acme.test', { self: true, name: 'Bob Stone' }, bob)).to.equal(
      'Bob Stone left the team',
    );
    expect(event('member.removed', 'bob@acme.test', { name: 'Bob Stone' })).to.equal(
      'Ada Lovelace removed Bob Stone from the team',
    );
    expect(
      event('member.permissions', 'bob@acme.test', {
        from: ['EDITOR'],
        to: ['ADMIN', 'EDITOR'],
        name: 'Bob Stone',
      }),
    ).to.equal('Ada Lovelace set the permissions of Bob Stone to Administrator and Editor');
    expect(event('team.seatLimit', '1200', { from: 100, to: 1200 })).to.equal(
      'Ada Lovelace set the user limit to 1,200',
    );
  });

  it('names the domain an admin added, verified or removed', () => {
    expect(event('domain.added', 'acme.test')).to.equal('Ada Lovelace added the domain acme.test');
    expect(event('domain.verified', 'acme.test')).to.equal('Ada Lovelace verified the domain acme.test');
    expect(event('domain.removed', 'acme.test')).to.equal('Ada Lovelace removed the domain acme.test');
    expect(event('domain.verified', 'acme.test', {}, null)).to.equal(
      'The daily check verified the domain acme.test',
    );
    expect(event('domain.unverified', 'acme.test', {}, null)).to.equal(
      'The domain acme.test is no longer verified: its DNS record was missing for three days',
    );
  });

  it('names the connection an admin added, changed, turned on or off, or removed', () => {
    expect(event('connection.added', 'Acme Okta')).to.equal('Ada Lovelace added the connection Acme Okta');
    expect(event('connection.changed', 'Acme Okta')).to.equal(
      'Ada Lovelace changed the connection Acme Okta',
    );
    expect(event('connection.enabled', 'Acme Okta')).to.equal(
      'Ada Lovelace turned on the connection Acme Okta',
    );
    expect(event('connection.disabled', 'Acme Okta')).to.equal(
      'Ada Lovelace turned off the connection Acme Okta',
    );
    expect(event('connection.removed', 'Acme Okta')).to.equal(
      'Ada Lovelace removed the connection Acme Okta',
    );
  });
});
