/** Placeholder until the owning feature lands. */
export function AccountDialog() {
  return null
}
