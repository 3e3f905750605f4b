/** E-mail addresses are compared trimmed, NFC-normalised and lower-cased. */
export function normaliseEmail(email: string): string {
  return email.normalize('NFC').trim().toLowerCase();
}

/** Team names are compared trimmed and lower-cased (spec §4 team step). */
export function normaliseTeam(team: string): string {
  return team.normalize('NFC').trim().toLowerCase();
}

/** The caller's address for per-address limits (the socket address; TRUST_PROXY is not supported yet). */
export function clientAddress(ip: string): string {
  return ip.replace(/^::ffff:/, '');
}
