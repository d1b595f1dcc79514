/** Reads an SSE stream into parsed events; `log` also keeps comment lines, in arrival order. */
export function readEvents(body: ReadableStream<Uint8Array>) {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each event's data has its own shape (JSON, or retry's number); tests assert it
  const events: { event: string; id?: string; data: any }[] = []
  const log: string[] = []
  /** `ended`: the response finished (or we cancelled it); `failed`: the connection broke off. */
  let state: 'open' | 'ended' | 'failed' = 'open'
  let raw = ''
  const decoder = new TextDecoder()
  const reader = body.getReader()
  void (async () => {
    for (;;) {
      const { value, done } = await reader.read().catch(() => {
        state = 'failed'
        return { value: undefined, done: true }
      })
      if (done) {
        if (state === 'open') state = 'ended'
        return
      }
      raw += decoder.decode(value, { stream: true })
      let cut: number
      while ((cut = raw.indexOf('\n\n')) >= 0) {
        const block = raw.slice(0, cut)
        raw = raw.slice(cut + 2)
        const fields: Record<string, string> = {}
        for (const line of block.split('\n')) {
          if (line.startsWith(':')) log.push(line)
          const m = /^([a-z]+): ?(.*)$/.exec(line)
          if (m) fields[m[1]!] = m[2]!
        }
        if (fields.event) events.push({ event: fields.event, id: fields.id, data: JSON.parse(fields.data ?? 'null') })
        else if (fields.retry) events.push({ event: 'retry', data: Number(fields.retry) })
        if (fields.event || fields.retry) log.push(fields.event ?? 'retry')
      }
    }
  })()
  return { events, log, state: () => state, cancel: () => reader.cancel().catch(() => undefined) }
}
