import { afterEach, describe, expect, it } from 'vitest'
import type { App } from '../src/app.js'
import { buildTestApp } from './helper.js'
import { deliver, generate } from './email-fixtures.js'

let app: App
afterEach(async () => {
  await app?.close()
})

interface WaitBody {
  timedOut: boolean
  message: { subject: string; fromAddress: string } | null
  messages: { subject: string; fromAddress: string }[]
  nearMisses?: { messages: { subject: string; from: string; failed: string[] }[] }
}

const wait = (address: string, query: string) => app.inject({ method: 'GET', url: `/api/email/${address}/wait?${query}` })

/** Starts a wait and resolves once it is listening for new mail, so what is delivered next is new to it. */
async function startWait(address: string, query: string) {
  const pending = wait(address, query)
  await expect.poll(() => app.mailWatcher.subscriberCount()).toBe(1)
  // Wrapped: an async function returning the promise itself would wait for the answer.
  return { pending }
}

describe('GET /api/email/{address}/wait with filters', () => {
  it('waits for the reset mail from noreply@myapp while other mail arrives first', async () => {
    app = await buildTestApp()
    const address = await generate(app)
    const { pending } = await startWait(address, `timeout=30&from=${encodeURIComponent('noreply@myapp')}&subject=reset`)
    let answered = false
    void pending.then(() => (answered = true))
    await deliver(app, address, { subject: 'Weekly news', fromAddress: 'news@myapp.test' })
    await deliver(app, address, { subject: 'Reset your password', fromAddress: 'phish@elsewhere.test' })
    // The watcher hands both to the wait, whose re-check is queued before this listing on the one database connection.
    await app.mailWatcher.sync()
    const listing = await app.inject({ method: 'GET', url: `/api/email/${address}` })
    expect((listing.json() as { total: number }).total).toBe(2)
    expect(answered).toBe(false)
    await deliver(app, address, { subject: 'Reset your PASSWORD', fromAddress: 'noreply@myapp.test', text: 'Use 551234 to reset.' })
    const res = await pending
    expect(res.statusCode).toBe(200)
    const body = res.json() as WaitBody
    expect(body.timedOut).toBe(false)
    expect(body.message).toMatchObject({ subject: 'Reset your PASSWORD', fromAddress: 'noreply@myapp.test' })
    expect(body.messages.map((m) => m.subject)).toEqual(['Reset your PASSWORD'])
  })

  it('with count=2 answers once two matching messages are there, both in the answer', async () => {
    app = await buildTestApp()
    const address = await generate(app)
    const { pending } = await startWait(address, 'timeout=30&count=2&contains=invoice')
    await deliver(app, address, { subject: 'first', text: 'Your INVOICE #1' })
    await deliver(app, address, { subject: 'unrelated', text: 'Nothing here' })
    await deliver(app, address, { subject: 'second', text: 'invoice #2 attached' })
    const body = (await pending).json() as WaitBody
    expect(body.timedOut).toBe(false)
    expect(body.messages.map((m) => m.subject)).toEqual(['first', 'second'])
    expect(body.message?.subject).toBe('first')
  })

  it('answers at once when enough matching messages are already there after `since`', async () => {
    app = await buildTestApp()
    const address = await generate(app)
    await deliver(app, address, { subject: 'Code 1', fromAddress: 'a@x.test' })
    await deliver(app, address, { subject: 'Other', fromAddress: 'b@x.test' })
    await deliver(app, address, { subject: 'Code 2', fromAddress: 'a@x.test' })
    const body = (await wait(address, 'timeout=30&since=0&count=2&from=a@x')).json() as WaitBody
    expect(body.messages.map((m) => m.subject)).toEqual(['Code 1', 'Code 2'])
  })

  it('takes % and _ in filters literally', async () => {
    app = await buildTestApp()
    const address = await generate(app)
    await deliver(app, address, { subject: '100 percent off', text: 'save big' })
    await deliver(app, address, { subject: 'a_b literal', text: 'a_b' })
    await deliver(app, address, { subject: 'axb decoy', text: 'axb' })
    await deliver(app, address, { subject: '50% off today', text: 'x' })
    const percent = (await wait(address, `timeout=1&since=0&count=2&subject=${encodeURIComponent('%')}`)).json() as WaitBody
    // Only one subject holds a real "%": two are never there, so the wait times out.
    expect(percent).toMatchObject({ message: null, messages: [], timedOut: true })
    expect(percent.nearMisses?.messages.map((m) => [m.subject, m.failed])).toEqual([
      ['100 percent off', ['subject']],
      ['a_b literal', ['subject']],
      ['axb decoy', ['subject']],
    ])
    const one = (await wait(address, `timeout=30&since=0&subject=${encodeURIComponent('0%')}`)).json() as WaitBody
    expect(one.message?.subject).toBe('50% off today')
    const underscore = (await wait(address, `timeout=30&since=0&contains=${encodeURIComponent('a_b')}`)).json() as WaitBody
    expect(underscore.messages.map((m) => m.subject)).toEqual(['a_b literal'])
  })

  it('refuses a count beyond 50 or below 1, and empty filters, with a JSON error', async () => {
    app = await buildTestApp()
    const address = await generate(app)
    for (const query of ['count=51', 'count=0', 'from=']) {
      const res = await wait(address, `timeout=1&${query}`)
      expect(res.statusCode).toBe(400)
      expect(res.json()).toMatchObject({ code: 'validation_failed' })
    }
  })

  it('times out when only non-matching mail arrives', async () => {
    app = await buildTestApp()
    const address = await generate(app)
    await deliver(app, address, { subject: 'hello', fromAddress: 'someone@x.test' })
    const body = (await wait(address, 'timeout=1&since=0&from=noreply')).json() as WaitBody
    expect(body).toMatchObject({ message: null, messages: [], timedOut: true })
    expect(body.nearMisses?.messages.map((m) => [m.subject, m.from, m.failed])).toEqual([['hello', 'Sender <someone@x.test>', ['from']]])
  })
})
