import type { FormEvent } from 'react';
import { readCookie, XSRF_COOKIE } from '../api/client';

const FIELD = '__RequestVerificationToken';

/**
 * The anti-forgery field of a form the browser posts to the server itself (spec §7). It renders empty;
 * `fillXsrfField` gives it the `XSRF-TOKEN` cookie's value in the form's submit handler, so the form
 * sends the cookie as it is when the person sends it — the cookie rotates at sign-in and may change
 * while a page stays open — and rendering the form reads no cookie. Across origins the cookie is not
 * the issuer's, and the server trusts the allowlisted Origin instead.
 */
export function XsrfField() {
  return <input type="hidden" name={FIELD} defaultValue="" />;
}

/** Fill the form's anti-forgery field; call it from the form's `onSubmit`, before the browser posts. */
export function fillXsrfField(event: FormEvent<HTMLFormElement>): void {
  const field = event.currentTarget.elements.namedItem(FIELD);
  if (field instanceof HTMLInputElement) field.value = readCookie(document.cookie, XSRF_COOKIE) ?? '';
}
