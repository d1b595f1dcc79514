/** Placeholder until the accounts feature lands. */
export function AnalyticsRoute() {
  return null
}
