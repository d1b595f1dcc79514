/** Temporary email tool (owned by the temp-email feature). */
export function TempEmailTool() {
  return <section id="temp-email" />
}
