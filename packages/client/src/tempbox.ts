import type { GenerateEmailResponse } from '@tempbox/types'
import { Api, apiRoot } from './http.js'
import { Inbox } from './inbox.js'
import type { CreateInboxOptions, TempboxOptions } from './types.js'

/** A Tempbox deployment: makes new inboxes and attaches to existing ones. */
export class Tempbox {
  private readonly api: Api

  constructor(options: TempboxOptions) {
    this.api = new Api(apiRoot(options.baseUrl), options.fetch)
  }

  /** A new address (random, or the name asked for: 409 `address_taken` when it is live). */
  async createInbox(options: CreateInboxOptions = {}): Promise<Inbox> {
    const created = await this.api.json<GenerateEmailResponse>('/email/generate', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ localPart: options.localPart, domain: options.domain }),
    })
    // A new inbox holds no mail yet: every message it gets counts for its first wait.
    return new Inbox(this.api, created.email, created.expiresAt, '0')
  }

  /** An address made earlier (by anyone who knows it); its first wait looks at mail arriving from then on. */
  inbox(address: string): Inbox {
    return new Inbox(this.api, address, null, null)
  }
}
