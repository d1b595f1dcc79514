import { test as base, expect } from '@playwright/test'
import { Tempbox, TempboxError, type Inbox } from '@tempbox/client'

export interface TempboxFixtures {
  /** Where Tempbox runs: `use: { tempboxUrl }` in the config, else TEMPBOX_URL, else http://127.0.0.1:3000. */
  tempboxUrl: string
  /** A client of that Tempbox, for more inboxes or attaching to known addresses. */
  tempbox: Tempbox
  /** A new address for this test alone, deleted with its mail when the test ends. */
  inbox: Inbox
}

export const test = base.extend<TempboxFixtures>({
  tempboxUrl: [process.env.TEMPBOX_URL || 'http://127.0.0.1:3000', { option: true }],
  tempbox: async ({ tempboxUrl }, use) => {
    await use(new Tempbox({ baseUrl: tempboxUrl }))
  },
  inbox: async ({ tempbox }, use) => {
    const inbox = await tempbox.createInbox()
    await use(inbox)
    // Already gone (the test deleted it, or it burned) is as good as deleted.
    await inbox.delete().catch((error: unknown) => {
      if (!(error instanceof TempboxError && error.status === 404)) throw error
    })
  },
})

export { expect }
export type { Inbox, Tempbox }
