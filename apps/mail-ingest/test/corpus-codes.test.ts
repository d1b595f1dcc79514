import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { parseMessage } from '../src/parse-message.js'
import { deriveView } from '../src/derive-view.js'
import { realMailFiles, REAL_MAIL_DIR } from '../../../tests/support/real-mail-corpus.js'

/**
 * Codes ingest stores for the real-mail corpus, parsed and derived as ingest does. None of its messages is a sign-up
 * mail: every number it holds (URL ids, dates, prices, phones, encoded junk) must stay out, whatever words are near.
 */
const EXPECTED: Record<string, string[]> = {}

describe('codes in the real-mail corpus', () => {
  const files = realMailFiles().sort()
  it(`finds exactly the expected codes in its ${files.length} messages`, async () => {
    const found: Record<string, string[]> = {}
    for (const file of files) {
      const derived = deriveView(await parseMessage(readFileSync(file)))
      if (derived.codes.length > 0) found[file.slice(REAL_MAIL_DIR.length)] = derived.codes.map((c) => c.code)
    }
    expect(found).toEqual(EXPECTED)
  })
})
