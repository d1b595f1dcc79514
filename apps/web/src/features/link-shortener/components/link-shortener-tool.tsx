/** Placeholder until the owning feature lands. */
export function LinkShortenerTool() {
  return null
}
