import { describe, expect, it } from 'vitest'
import { DEFAULT_DERIVE_LIMITS } from '../src/limits.js'
import { extractCodes, extractLinks } from '../src/verification.js'

/**
 * One rule of the code and link extraction per test, each at its edge: the shapes verification.test.ts reads as whole
 * mails pass whatever side of an edge the rule sits, and mutation testing showed such rules could change unnoticed.
 */
const codes = (text: string, subject = '') => extractCodes(subject, text)
const anchor = (href: string, label: string) => ({ href, label })
const links = (anchors: { href: string; label: string }[], text = '', limits = DEFAULT_DERIVE_LIMITS) => extractLinks(anchors, text, limits)

describe('what announces a code', () => {
  it('finds each shape of code at its shortest (the scan is skipped only for a text that holds none)', () => {
    expect(codes('Your code: 482 910')).toEqual(['482910'])
    expect(codes('Your PIN 4829')).toEqual(['4829'])
    expect(codes('Code: A1B2C3')).toEqual(['A1B2C3'])
    expect(codes('Your code is on its way', 'Code 4829')).toEqual(['4829'])
    expect(codes('Your verification code will follow, 48 29.')).toEqual([])
  })

  it('takes a Latin-script word only when it stands alone', () => {
    expect(codes('spinning 482910')).toEqual([])
    expect(codes('barcode 482910')).toEqual([])
    expect(codes('pins 482910')).toEqual([])
    // "code" (and kod, kode) may run on into a longer word: "codes", "koden".
    expect(codes('Your codes: 482910')).toEqual(['482910'])
    expect(codes('Din koden 482910')).toEqual(['482910'])
  })

  it('takes a word of another script whatever touches it', () => {
    expect(codes('验证码是 563920')).toEqual(['563920'])
    expect(codes('Tu códigoes 270431')).toEqual(['270431'])
  })

  it('does not take a compound that names a thing', () => {
    expect(codes('PIN-pad 4829')).toEqual([])
    expect(codes('code-review 482910')).toEqual([])
    expect(codes('code - 482910')).toEqual(['482910'])
  })

  it('reads a code at most 80 characters from its word, before or after it', () => {
    expect(codes(`code${' '.repeat(76)}482910`)).toEqual(['482910'])
    expect(codes(`code${' '.repeat(77)}482910`)).toEqual([])
    expect(codes(`482910${' '.repeat(74)}code`)).toEqual(['482910'])
    expect(codes(`482910${' '.repeat(75)}code`)).toEqual([])
  })

  it('measures from the nearest of several words', () => {
    const far = ' '.repeat(100)
    expect(codes(`code${far}code 482910`)).toEqual(['482910'])
    expect(codes(`code${far}482910 code${far}code`)).toEqual(['482910'])
    expect(codes(`code${far}code${far}code${far}482910${' '.repeat(10)}code${far}code`)).toEqual(['482910'])
  })

  it('looks at the first 200 announcing words of a source only', () => {
    const gap = 'x'.repeat(100)
    expect(codes(`${'code '.repeat(199)}${gap} code 482910`)).toEqual(['482910'])
    expect(codes(`${'code '.repeat(200)}${gap} code 482910`)).toEqual([])
  })

  it('looks at the first 200 candidates of a source only', () => {
    // Years are candidates that are never codes (a comma keeps two of them from reading as one split code).
    expect(codes(`${'1999, '.repeat(199)}code 482910`)).toEqual(['482910'])
    expect(codes(`${'1999, '.repeat(200)}code 482910`)).toEqual([])
  })

  it('reads only the first part of the subject and the text', () => {
    const limits = { ...DEFAULT_DERIVE_LIMITS, subjectScanChars: 11, codeScanChars: 11 }
    expect(extractCodes('code 482910', 'code 739204', limits)).toEqual(['482910', '739204'])
    expect(extractCodes('code    482910', 'code    739204', limits)).toEqual([])
  })
})

describe('what is not a code', () => {
  it('refuses a number named as something else', () => {
    expect(codes('code for order 482910')).toEqual([])
    expect(codes('code, ticket #482910')).toEqual([])
  })

  it('refuses amounts: a currency just before or after', () => {
    expect(codes('code $ 4829')).toEqual([])
    expect(codes('code 4829 EUR')).toEqual([])
    expect(codes('code 4829 €')).toEqual([])
    expect(codes('code costs 4829 in total')).toEqual(['4829'])
  })

  it('refuses a year, unless it follows a colon', () => {
    expect(codes('code 2024')).toEqual([])
    expect(codes('code 1987')).toEqual([])
    expect(codes('code: 2024')).toEqual(['2024'])
    expect(codes('code：2024')).toEqual(['2024'])
    expect(codes('code 2124')).toEqual(['2124'])
  })

  it('refuses a number after a month', () => {
    expect(codes('code sent Jan 4829')).toEqual([])
    expect(codes('code sent September 12, 4829')).toEqual([])
    expect(codes('code sent 4829')).toEqual(['4829'])
  })

  it('refuses parts of phone numbers', () => {
    expect(codes('code + 482910')).toEqual([])
    expect(codes('code (415) 482910')).toEqual([])
    expect(codes('code 41 482910')).toEqual([])
    expect(codes('code 482910 77')).toEqual([])
    expect(codes('code 482910 7')).toEqual(['482910'])
  })

  it('refuses times and quantities', () => {
    expect(codes('code 2048 MB')).toEqual([])
    expect(codes('code 1200 pm')).toEqual([])
    expect(codes('code 4829km')).toEqual([])
    expect(codes('code 4829 mbps')).toEqual(['4829'])
  })
})

describe('which codes come first', () => {
  it('gives the three nearest their word, nearest first', () => {
    expect(codes('code 111111, or 222222, or 333333, or 444444')).toEqual(['111111', '222222', '333333'])
  })

  it('prefers the subject to the text, and digits to a code with letters, at the same distance', () => {
    expect(extractCodes('code 111111', 'code 222222')).toEqual(['111111', '222222'])
    expect(extractCodes('code A7K9Q2', 'code 222222')).toEqual(['222222', 'A7K9Q2'])
    expect(codes('code A7K9Q2 or code 222222')).toEqual(['222222', 'A7K9Q2'])
  })

  it('ranks a code found twice by its better place', () => {
    // 111111 sits 7 from "code" in the subject (7) and 31 in the text (36); 222222 is 5 from it in the text (10).
    expect(extractCodes('111111 code', `code 222222${' '.repeat(20)}111111`)).toEqual(['111111', '222222'])
  })

  it('orders codes of equal rank by where they stand, the subject before the text', () => {
    // Both score 10: 5 from the word in the subject, and 5 in the text plus its 5 for being in the text.
    expect(extractCodes('code      111111', 'code 222222')).toEqual(['111111', '222222'])
    expect(extractCodes('code 222222', 'code 111111')).toEqual(['222222', '111111'])
    expect(codes('3333 code 111111')).toEqual(['3333', '111111'])
  })

  it('joins a code split by a space or a dash', () => {
    expect(codes('code 394 812')).toEqual(['394812'])
    expect(codes('code 3948-1201')).toEqual(['39481201'])
  })
})

describe('verification links from anchors', () => {
  it('takes http and https links whose address or label says what they are for', () => {
    expect(links([anchor('https://a.example/verify?t=1', 'Click'), anchor('http://b.example/x', 'Confirm account')])).toEqual([
      { url: 'https://a.example/verify?t=1', label: 'Click' },
      { url: 'http://b.example/x', label: 'Confirm account' },
    ])
    expect(links([anchor('mailto:verify@example.com', 'Verify'), anchor('javascript:verify()', 'Verify'), anchor('https://c.example/blog', 'Read more')])).toEqual([])
  })

  it('reads the address percent-decoded, and skips one that does not decode', () => {
    expect(links([anchor('https://a.example/%76erify', 'Click')])).toEqual([{ url: 'https://a.example/%76erify', label: 'Click' }])
    expect(links([anchor('https://a.example/verify%E0%A4%A', 'Click')])).toEqual([])
    expect(links([anchor('https://exa mple.com/verify', 'Click')])).toEqual([])
  })

  it('skips unsubscribe, policy and social links, by address or by label', () => {
    expect(links([anchor('https://a.example/verify/unsubscribe', 'Confirm')])).toEqual([])
    expect(links([anchor('https://a.example/verify', 'Unsubscribe')])).toEqual([])
    expect(links([anchor('https://a.example/confirm/logo.png', 'Confirm')])).toEqual([])
    expect(links([anchor('https://a.example/confirm/logo.png?v=2', 'Confirm')])).toEqual([])
  })

  it('keeps three links at most, each once, trimmed', () => {
    const many = ['a', 'b', 'c', 'd'].map((x) => anchor(`https://${x}.example/verify`, `Verify ${x}`))
    expect(links(many).map((l) => l.url)).toEqual(['https://a.example/verify', 'https://b.example/verify', 'https://c.example/verify'])
    expect(links([anchor(' https://a.example/verify ', 'One'), anchor('https://a.example/verify', 'Two')])).toEqual([
      { url: 'https://a.example/verify', label: 'One' },
    ])
  })

  it('skips an address longer than the limit', () => {
    const limits = { ...DEFAULT_DERIVE_LIMITS, maxLinkUrlChars: 30 }
    expect(links([anchor('https://a.example/verify?t=1234', 'Go')], '', limits)).toEqual([])
    expect(links([anchor('https://a.example/verify?t=123', 'Go')], '', limits)).toEqual([{ url: 'https://a.example/verify?t=123', label: 'Go' }])
  })

  it('shows the label with its white space collapsed and cut at 120 characters, or names the link by its address', () => {
    expect(links([anchor('https://a.example/verify', '  Verify\n   my   email ')])[0]!.label).toBe('Verify my email')
    expect(links([anchor('https://a.example/verify', 'V'.repeat(130))])[0]!.label).toBe('V'.repeat(120))
    expect(links([anchor('https://a.example/auth/magic', ' ')])[0]!.label).toBe('Sign-in link')
    expect(links([anchor('https://a.example/log-in?t=1', '')])[0]!.label).toBe('Sign-in link')
    expect(links([anchor('https://a.example/password/reset?t=1', '')])[0]!.label).toBe('Password reset link')
    expect(links([anchor('https://a.example/confirm?t=1', '')])[0]!.label).toBe('Verification link')
  })
})

describe('verification links in plain text', () => {
  it('names a link by the words before it on its line, without a trailing colon or dash', () => {
    expect(links([], 'Confirm here: https://a.example/x?t=1')).toEqual([{ url: 'https://a.example/x?t=1', label: 'Confirm here' }])
    expect(links([], 'Verify –\nnothing https://a.example/x')).toEqual([])
    expect(links([], 'Verify – https://a.example/x')).toEqual([{ url: 'https://a.example/x', label: 'Verify' }])
  })

  it('names a link alone on its line by the line before, when that line is short', () => {
    expect(links([], 'Activate your account:\nhttps://a.example/x')).toEqual([{ url: 'https://a.example/x', label: 'Activate your account' }])
    expect(links([], `Activate your account ${'.'.repeat(100)}\nhttps://a.example/x`)).toEqual([])
    expect(links([], 'Hello\n\nhttps://a.example/x')).toEqual([])
    expect(links([], 'https://a.example/verify')).toEqual([{ url: 'https://a.example/verify', label: 'Verification link' }])
  })

  it('reads at most 80 characters before the link on its line', () => {
    expect(links([], `Confirm ${'x'.repeat(80)} https://a.example/x`)).toEqual([])
  })

  it('leaves sentence punctuation and entities out of the address', () => {
    expect(links([], 'Verify at https://a.example/verify?a=1&amp;b=2...!?')).toEqual([{ url: 'https://a.example/verify?a=1&b=2', label: 'Verify at' }])
  })

  it('skips an address of 2048 characters or more and goes on to the next', () => {
    const long = `https://a.example/verify?t=${'x'.repeat(2100)}`
    expect(links([], `${long}\nhttps://b.example/verify`)).toEqual([{ url: 'https://b.example/verify', label: 'Verification link' }])
  })

  it('stops at three links, anchors first, and reads only the first part of the text', () => {
    const text = ['a', 'b', 'c', 'd'].map((x) => `https://${x}.example/verify`).join('\n')
    expect(links([], text).map((l) => l.url)).toEqual(['https://a.example/verify', 'https://b.example/verify', 'https://c.example/verify'])
    expect(links([anchor('https://z.example/verify', 'Go')], text).map((l) => l.url)).toEqual([
      'https://z.example/verify', 'https://a.example/verify', 'https://b.example/verify',
    ])
    const limits = { ...DEFAULT_DERIVE_LIMITS, textScanChars: 10 }
    expect(links([], 'https://a.example/verify', limits)).toEqual([])
  })
})
