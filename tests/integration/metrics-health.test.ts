import nodemailer, { type Transporter } from 'nodemailer'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startStack, waitFor, type Stack } from '../support/stack.js'

/** One sample of a Prometheus exposition, e.g. `tempbox_smtp_refused_total{reason="too_big"}`; NaN when absent. */
function sample(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `))
  return line ? Number(line.slice(series.length + 1)) : NaN
}

async function scrape(port: number): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${port}/metrics`)
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toContain('text/plain')
  return res.text()
}

async function generate(stack: Stack): Promise<string> {
  const res = await fetch(`${stack.apiUrl}/api/email/generate`, { method: 'POST' })
  expect(res.status).toBe(200)
  return ((await res.json()) as { email: string }).email
}

describe('metrics and health of the real api and mail-ingest', () => {
  let stack: Stack
  let smtp: Transporter

  beforeAll(async () => {
    stack = await startStack({ env: { INGEST_HEARTBEAT_MS: '200' } })
    smtp = nodemailer.createTransport({ host: '127.0.0.1', port: stack.smtpPort, secure: false, ignoreTLS: true })
  })
  afterAll(async () => {
    smtp?.close()
    await stack?.stop()
  })

  it('counts SMTP sessions, accepted and refused mail, stored bytes and commit latency, naming no address', async () => {
    const address = await generate(stack)
    const before = await scrape(stack.ingestMetricsPort)
    const info = await smtp.sendMail({ from: 'a@sender.test', to: address, subject: 'hello', text: 'x'.repeat(500) })
    expect(info.response).toMatch(/^250/)
    const unknown = `nobody-here@${stack.mailDomain}`
    await expect(smtp.sendMail({ from: 'a@sender.test', to: unknown, subject: 'lost', text: 'lost' })).rejects.toThrow(/550/)

    const after = await scrape(stack.ingestMetricsPort)
    const delta = (series: string) => sample(after, series) - (Number.isNaN(sample(before, series)) ? 0 : sample(before, series))
    expect(delta('tempbox_smtp_messages_accepted_total')).toBe(1)
    expect(delta('tempbox_smtp_refused_total{reason="unknown_recipient"}')).toBe(1)
    expect(delta('tempbox_ingest_stored_bytes_total')).toBeGreaterThan(500)
    expect(delta('tempbox_ingest_commit_seconds_count')).toBe(1)
    expect(delta('tempbox_smtp_sessions_total')).toBeGreaterThanOrEqual(1)
    expect(sample(after, 'tempbox_ingest_queue_messages')).toBe(0)
    expect(after).not.toContain(address.split('@')[0])
    expect(after).not.toContain('nobody-here')
    expect(after).not.toContain('127.0.0.1')
  })

  it('counts HTTP requests by route pattern, open event streams and active addresses', async () => {
    const address = await generate(stack)
    expect((await fetch(`${stack.apiUrl}/api/email/${address}`)).status).toBe(200)
    const controller = new AbortController()
    const stream = await fetch(`${stack.apiUrl}/api/email/${address}/events`, { signal: controller.signal })
    expect(stream.status).toBe(200)

    const open = await scrape(stack.metricsPort)
    expect(sample(open, 'tempbox_http_request_duration_seconds_count{method="GET",route="/api/email/:address",status="2xx"}')).toBeGreaterThanOrEqual(1)
    expect(sample(open, 'tempbox_sse_clients')).toBe(1)
    expect(sample(open, 'tempbox_active_addresses')).toBeGreaterThanOrEqual(1)
    expect(open).not.toContain(address.split('@')[0])

    controller.abort()
    await waitFor(async () => sample(await scrape(stack.metricsPort), 'tempbox_sse_clients') === 0, 20_000, 'the stream to be counted as closed')
  })

  it('serves metrics only on their own listener, not on the public port', async () => {
    expect((await fetch(`${stack.apiUrl}/metrics`)).status).toBe(404)
    expect((await fetch(`http://127.0.0.1:${stack.metricsPort}/`)).status).toBe(404)
  })

  it('is ready while database, ingest and change feed work, and answers 503 once ingest stops', async () => {
    const ready = await fetch(`${stack.apiUrl}/api/health`)
    expect(ready.status).toBe(200)
    const body = (await ready.json()) as { status: string; checks: Record<string, { ok: boolean; detail: string }> }
    expect(body.status).toBe('ok')
    expect(body.checks.database!.ok).toBe(true)
    expect(body.checks.ingest!.ok).toBe(true)
    expect(body.checks.changeFeed!.ok).toBe(true)

    await stack.ingest.stop()
    let down: { status: string; checks: Record<string, { ok: boolean; detail: string }> } | undefined
    await waitFor(async () => {
      const res = await fetch(`${stack.apiUrl}/api/health`)
      if (res.status !== 503) return false
      down = (await res.json()) as typeof down
      return true
    }, 15_000, 'readiness to notice ingest stopped')
    expect(down!.status).toBe('unavailable')
    expect(down!.checks.ingest).toMatchObject({ ok: false, detail: expect.stringContaining('mail-ingest has not reported in') })
    expect(down!.checks.database!.ok).toBe(true)
    // Liveness stays up: the process itself is fine, a restart would not help.
    expect((await fetch(`${stack.apiUrl}/api/health/live`)).status).toBe(200)

    await stack.restartIngest()
    await waitFor(async () => (await fetch(`${stack.apiUrl}/api/health`)).status === 200, 20_000, 'readiness to return with ingest')
  })
})
