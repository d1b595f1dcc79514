import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startStack, type Stack } from '../support/stack.js'

let stack: Stack
beforeAll(async () => {
  stack = await startStack({ env: { MAX_ACTIVE_ADDRESSES_PER_IP: '3', MAX_GENERATED_PER_HOUR_PER_IP: '100' } })
})
afterAll(async () => {
  await stack?.stop()
})

describe('per-IP address limits', () => {
  it('answers 429 with a sentence once the active-address limit is reached', async () => {
    const generate = () => fetch(`${stack.apiUrl}/api/email/generate`, { method: 'POST' })
    for (let i = 0; i < 3; i++) expect((await generate()).status).toBe(200)
    const res = await generate()
    expect(res.status).toBe(429)
    const body = (await res.json()) as { error: string; code: string }
    expect(body.code).toBe('too_many_active_addresses')
    expect(body.error).toBe('You already have 3 active addresses. Release one you no longer need, or wait until one expires.')
  })
})
