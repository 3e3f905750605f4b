import type { Language } from '../../../src/contract/languages';
import { serverText, type TextKey } from '../mail/texts';
import { escapeHtml, plainPage as page } from './plain-page';

/**
 * The device flow's pages (RFC 8628 §3.3): where the user types the code their device shows, confirms
 * which app asks, and is told the device is signed in. Plain pages like the provider's others: no
 * script, no style, forms to the provider only.
 */

type DeviceText = Extract<TextKey, `device.${string}`> extends `device.${infer K}` ? K : never;

function text(language: Language, key: DeviceText, values: Record<string, string> = {}) {
  return escapeHtml(serverText(language, `device.${key}`, values));
}

/** Why the code was refused, from the provider's error's name; null for the first visit. */
export type CodeProblem = 'wrongCode' | 'expired' | 'used' | 'aborted' | 'error' | 'tooMany';

/** The provider's re-render errors (lib/helpers/re_render_errors.js) by name. */
export function codeProblem(errorName: string | undefined): CodeProblem | null {
  switch (errorName) {
    case undefined:
      return null;
    case 'NoCodeError':
    case 'NotFoundError':
      return 'wrongCode';
    case 'ExpiredError':
      return 'expired';
    case 'AlreadyUsedError':
      return 'used';
    case 'AbortedError':
      return 'aborted';
    default:
      return 'error';
  }
}

const hidden = (name: string, value: string) =>
  `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`;

/** The code field, labelled, with the problem said at the field (and announced). */
export function deviceCodePage(
  language: Language,
  form: { action: string; xsrf: string; code?: string; problem?: CodeProblem | null },
): string {
  const problem = form.problem ? `<p id="code-problem" role="alert">${text(language, form.problem)}</p>` : '';
  const described = form.problem ? ' aria-invalid="true" aria-describedby="code-problem"' : '';
  const value = form.code ? ` value="${escapeHtml(form.code)}"` : '';
  return page(
    language,
    text(language, 'title'),
    `<p>${text(language, 'enter')}</p><form method="post" action="${escapeHtml(form.action)}">${hidden('xsrf', form.xsrf)}<p><label for="user_code">${text(language, 'code')}</label> <input id="user_code" name="user_code" type="text" dir="ltr" autocomplete="off" autocapitalize="characters" spellcheck="false" maxlength="32" required autofocus${value}${described}></p>${problem}<p><button type="submit">${text(language, 'continue')}</button></p></form>`,
  );
}

/** Which app asks and the code the device should show; "Sign in" confirms, "Cancel" aborts. */
export function deviceConfirmPage(
  language: Language,
  form: { action: string; xsrf: string; code: string; app: string },
): string {
  const app = { app: form.app };
  return page(
    language,
    text(language, 'confirmTitle', app),
    `<p>${text(language, 'confirmBody', app)}</p><p><strong>${escapeHtml(form.code)}</strong></p><p>${text(language, 'notYou')}</p><form method="post" action="${escapeHtml(form.action)}">${hidden('xsrf', form.xsrf)}${hidden('user_code', form.code)}<button type="submit" name="confirm" value="yes">${text(language, 'confirm')}</button> <button type="submit" name="abort" value="yes" class="secondary">${text(language, 'cancel')}</button></form>`,
  );
}

/** The device is signed in: back to it. */
export function deviceDonePage(language: Language, app: string): string {
  return page(language, text(language, 'doneTitle'), `<p>${text(language, 'doneBody', { app })}</p>`);
}

/** Too many codes tried from this address: no form until the window has passed. */
export function deviceTooManyPage(language: Language): string {
  return page(language, text(language, 'title'), `<p role="alert">${text(language, 'tooMany')}</p>`);
}
