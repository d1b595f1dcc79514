/** Placeholder until the owning feature lands. */
export function QrGeneratorTool() {
  return null
}
