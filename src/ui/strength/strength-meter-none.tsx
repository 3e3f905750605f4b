/**
 * The classic-script build's strength meter: none. That build inlines every lazily loaded chunk, and
 * the meter's dictionaries would multiply its size for every page, the sign-in page first (rollup.config.mjs,
 * docs/decisions/breached-passwords.md). The server's rules and breach check apply all the same.
 */
export default function StrengthMeter(_props: { password: string; userInputs?: string[] }) {
  return null;
}
