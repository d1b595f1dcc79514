import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { buildTestApp } from './helper.js'
import { expectRateLimited } from './rate-limit-answer.js'
import type { App } from '../src/app.js'

let app: App
beforeEach(async () => {
  app = await buildTestApp()
})
afterEach(() => app.close())

const valid = { name: 'Ann', email: 'ann@example.com', subject: 'Hello', message: 'A question about the inbox.' }

describe('POST /api/contact', () => {
  it('stores a message as new', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/contact', payload: valid })
    expect(res.statusCode).toBe(201)
    expect(res.json()).toEqual({ success: true, id: expect.any(Number) })
    const row = await app.db.selectFrom('contact_message').selectAll().executeTakeFirstOrThrow()
    expect(row).toMatchObject({ ...valid, status: 'new' })
  })

  it('answers 400 per field for blanks, a bad email and over-long text', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/contact', payload: { name: ' ', email: 'nope', subject: 'x'.repeat(201), message: 'y'.repeat(5001) } })
    expect(res.statusCode).toBe(400)
    expect(res.json().fields).toEqual({
      name: 'Name is required.',
      email: 'Please enter a valid email address.',
      subject: 'Subject must be at most 200 characters.',
      message: 'Message must be at most 5000 characters.',
    })
    const missing = await app.inject({ method: 'POST', url: '/api/contact', payload: { name: 'Ann' } })
    expect(missing.statusCode).toBe(400)
    expect(await app.db.selectFrom('contact_message').selectAll().execute()).toEqual([])
  })

  it('is rate-limited per IP: 10 messages, then 429 with a sentence, while another IP is still served', async () => {
    const post = (remoteAddress: string) => app.inject({ method: 'POST', url: '/api/contact', payload: valid, remoteAddress })
    const statuses: number[] = []
    for (let i = 0; i < 12; i++) statuses.push((await post('203.0.113.60')).statusCode)
    expect(statuses).toEqual([...Array<number>(10).fill(201), 429, 429])
    expectRateLimited(await post('203.0.113.60'), 3600)
    expect((await post('198.51.100.60')).statusCode).toBe(201)
    expect(await app.db.selectFrom('contact_message').selectAll().execute()).toHaveLength(11)
  })
})
