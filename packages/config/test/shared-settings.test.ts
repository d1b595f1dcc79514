import { describe, expect, it } from 'vitest'
import { DEFAULT_MESSAGE_TEXT_MAX_CHARS, intReader, readMailDomains, readMessageTextMaxChars } from '../src/index.js'

describe('readMailDomains', () => {
  it('reads a comma-separated list, lower-cased and trimmed, empty entries dropped', () => {
    const problems: string[] = []
    expect(readMailDomains({ MAIL_DOMAINS: ' Mail.Example, ,tempbox.dev,x-1.co.uk ' }, problems)).toEqual(['mail.example', 'tempbox.dev', 'x-1.co.uk'])
    expect(problems).toEqual([])
  })

  it('gives tempbox.local when unset or blank, which any SMTP client can address at our server', () => {
    expect(readMailDomains({}, [])).toEqual(['tempbox.local'])
    expect(readMailDomains({ MAIL_DOMAINS: '  ' }, [])).toEqual(['tempbox.local'])
  })

  it('names each domain that is not one, lower-cased as it would be used', () => {
    const problems: string[] = []
    readMailDomains({ MAIL_DOMAINS: `ok.example,-bad.example,Under_Score.example,a..b,${'a'.repeat(64)}.example` }, problems)
    expect(problems).toEqual([
      'MAIL_DOMAINS has an invalid domain "-bad.example"',
      'MAIL_DOMAINS has an invalid domain "under_score.example"',
      'MAIL_DOMAINS has an invalid domain "a..b"',
      `MAIL_DOMAINS has an invalid domain "${'a'.repeat(64)}.example"`,
    ])
  })
})

describe('readMessageTextMaxChars', () => {
  it('is 256 K characters unless set, and at least 1', () => {
    const problems: string[] = []
    expect(readMessageTextMaxChars(intReader({}, problems))).toBe(DEFAULT_MESSAGE_TEXT_MAX_CHARS)
    expect(DEFAULT_MESSAGE_TEXT_MAX_CHARS).toBe(262_144)
    expect(readMessageTextMaxChars(intReader({ MESSAGE_TEXT_MAX_CHARS: '64' }, problems))).toBe(64)
    expect(readMessageTextMaxChars(intReader({ MESSAGE_TEXT_MAX_CHARS: '0' }, problems))).toBe(DEFAULT_MESSAGE_TEXT_MAX_CHARS)
    expect(problems).toEqual(['MESSAGE_TEXT_MAX_CHARS must be an integer ≥ 1 (got "0")'])
  })
})
