/**
 * Sign-in with a mailed code, as the server and the screens both count it: six digits, ten minutes (the
 * next mail supersedes the code), and the wait before the screen offers another mail (the server's
 * rate limits stand behind it).
 */
export const EMAIL_CODE_DIGITS = 6;
export const EMAIL_CODE_MINUTES = 10;
export const EMAIL_CODE_RESEND_SECONDS = 30;
