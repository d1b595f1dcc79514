/** Placeholder until the accounts feature lands. */
export function AdminSetupRoute() {
  return null
}
