import { describe, expect, it } from 'vitest'
import { parseWebhookUrl, resolveTarget, TargetRefused, whyNotPublic, type TargetPolicy } from '../src/services/webhooks/webhook-target.js'

// The sentence and code of a TargetRefused are the `error` and `code` of the PUT's 400 (webhook-service.ts), word for word.
const HTTPS_ONLY: TargetPolicy = { allowHttp: false, allowPrivate: false }
const HTTP_TOO: TargetPolicy = { allowHttp: true, allowPrivate: false }

function refusal(run: () => unknown): { message: string; code: string } {
  try {
    run()
  } catch (err) {
    if (err instanceof TargetRefused) return { message: err.message, code: err.code }
    throw err
  }
  throw new Error('not refused')
}

async function refusalOf(promise: Promise<unknown>): Promise<{ message: string; code: string }> {
  const err: unknown = await promise.then(() => new Error('not refused'), (e: unknown) => e)
  if (err instanceof TargetRefused) return { message: err.message, code: err.code }
  throw err
}

describe('a webhook URL as given', () => {
  it('tells a person what is wrong with it, in the sentence the API answers', () => {
    expect(refusal(() => parseWebhookUrl('hooks.example/in', HTTPS_ONLY))).toEqual({
      message: 'This is not a URL. Give a full address such as https://example.com/hooks/tempbox.',
      code: 'invalid_webhook_url',
    })
    expect(refusal(() => parseWebhookUrl('http://hooks.example/in', HTTPS_ONLY))).toEqual({
      message: 'Webhook URLs must use https:// (plain http is not allowed on this server).',
      code: 'invalid_webhook_url',
    })
    expect(refusal(() => parseWebhookUrl('ftp://hooks.example/in', HTTP_TOO))).toEqual({
      message: 'Webhook URLs must start with https:// or http://.',
      code: 'invalid_webhook_url',
    })
    const credentials = 'Webhook URLs must not contain a user name or password; put a token in the path or query instead.'
    expect(refusal(() => parseWebhookUrl('https://user@hooks.example/in', HTTPS_ONLY))).toEqual({ message: credentials, code: 'invalid_webhook_url' })
    expect(refusal(() => parseWebhookUrl('https://:secret@hooks.example/in', HTTPS_ONLY))).toEqual({ message: credentials, code: 'invalid_webhook_url' })
  })

  it('takes https always, http only where allowed, and drops the #fragment, which a receiver never sees', () => {
    expect(parseWebhookUrl('https://hooks.example/in?t=1#part', HTTPS_ONLY).href).toBe('https://hooks.example/in?t=1')
    expect(parseWebhookUrl('http://hooks.example/in', HTTP_TOO).href).toBe('http://hooks.example/in')
  })
})

describe('where a webhook URL leads', () => {
  const url = (raw: string) => parseWebhookUrl(raw, HTTP_TOO)

  it('connects to an IP literal as written, IPv6 without its brackets, never asking DNS', async () => {
    const asked: string[] = []
    const lookup = async (host: string) => {
      asked.push(host)
      return []
    }
    expect(await resolveTarget(url('https://[2606:4700:4700::1111]:8443/in'), HTTPS_ONLY, lookup)).toEqual({ address: '2606:4700:4700::1111', family: 6 })
    expect(await resolveTarget(url('https://8.8.8.8/in'), HTTPS_ONLY, lookup)).toEqual({ address: '8.8.8.8', family: 4 })
    expect(asked).toEqual([])
  })

  it('connects to the first address a name resolves to, of its family', async () => {
    const lookup = async () => [{ address: '2606:4700:4700::1111', family: 6 }, { address: '8.8.8.8', family: 4 }]
    expect(await resolveTarget(url('https://hooks.example/in'), HTTPS_ONLY, lookup)).toEqual({ address: '2606:4700:4700::1111', family: 6 })
  })

  it('refuses a name that does not resolve, or resolves to nothing', async () => {
    const sentence = { message: 'The host name "hooks.example" does not resolve.', code: 'webhook_target_refused' }
    const failing = async (): Promise<never> => {
      throw Object.assign(new Error('queryA ENOTFOUND hooks.example'), { code: 'ENOTFOUND' })
    }
    expect(await refusalOf(resolveTarget(url('https://hooks.example/in'), HTTPS_ONLY, failing))).toEqual(sentence)
    expect(await refusalOf(resolveTarget(url('https://hooks.example/in'), HTTPS_ONLY, async () => []))).toEqual(sentence)
  })

  it('names the private address a name resolves to and why it may not be reached', async () => {
    const lookup = async () => [{ address: '10.1.2.3', family: 4 }]
    expect(await refusalOf(resolveTarget(url('https://hooks.example/in'), HTTPS_ONLY, lookup))).toEqual({
      message: '"hooks.example" points to a non-public address: 10.1.2.3 is private network (10.0.0.0/8). Webhooks may only reach public addresses on this server.',
      code: 'webhook_target_refused',
    })
  })

  it('says when a resolver answers with something that is not an address', () => {
    expect(whyNotPublic('hooks.example')).toBe('hooks.example is not an IP address')
    expect(whyNotPublic('8.8.8.8')).toBeNull()
  })
})
