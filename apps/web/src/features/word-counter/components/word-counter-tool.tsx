/** Placeholder until the owning feature lands. */
export function WordCounterTool() {
  return null
}
