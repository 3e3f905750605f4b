/** Passkeys and two-step sign-in: the signed-in user's own (the manage area's section). */
export default function SecurityPage() {
  return null;
}
