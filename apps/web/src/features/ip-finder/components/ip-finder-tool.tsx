/** Placeholder until the owning feature lands. */
export function IpFinderTool() {
  return null
}
