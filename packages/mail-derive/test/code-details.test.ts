import { describe, expect, it } from 'vitest'
import { extractCodeDetails, extractVerification } from '../src/verification.js'
import { htmlToText } from '../src/html-text.js'

const codes = (text: string, subject = '') => extractCodeDetails(subject, text).map((d) => d.code)

/** Numbers a sign-up mail holds beside its code, each next to a word that could announce one. */
const NOT_CODES: [string, string][] = [
  ['a six-digit domain', 'Your code is on its way from 123456.com, the login service.'],
  ['a six-digit subdomain', 'Sign in code sent by mail.654321.net today.'],
  ['an address at a numeric domain', 'Verification mail from no-reply@482913.com.'],
  ['an order number', 'Your code for Order #123456 is below the fold.'],
  ['an invoice number', 'Verification done. Invoice 2026-4471 is attached.'],
  ['a price', 'Your code unlocks $123,456.00 of credit.'],
  ['a spaced price', 'Your code: pay USD 482913 before Friday.'],
  ['a phone number', 'Questions about your code? Call +1 (555) 123-4567.'],
  ['a dashed phone number', 'Lost your code? Call 555-123-4567.'],
  ['a date', 'Your code was sent on 2026-11-28.'],
  ['a copyright year', 'Your code expires soon. Copyright 2026 Acme Inc.'],
  ['a street and a US ZIP code', 'Your code expires soon. Acme Inc., 1200 Market St, San Francisco, CA 94103'],
  ['a German ZIP code before its city', 'Ihr Code läuft bald ab. Acme GmbH, Friedrichstraße 12, 10115 Berlin'],
  ['a number in a URL', 'Fix delivery issues for error code 5.1.10 <http://go.microsoft.com/fwlink/?LinkId=532972>.'],
  ['a query value', 'Verify at verify.asp?topcat_id=25&firm_id=2828 now'],
  ['encoded junk', 'M<M:SU&`H:%41!SDD9ZN?(1\'\'@K<#5:QB%;0 code'],
]

/** Codes as senders write them: each with the sentence, label and reason a client is shown. */
const CODES: { name: string; subject?: string; text: string; code: string; source: string; reason: string; label: string | null }[] = [
  { name: 'a plain sentence', text: 'Hi,\n\nYour code is 123456. It expires in 10 minutes.', code: '123456', source: 'Your code is 123456.', reason: 'labelled', label: 'code' },
  { name: 'an OTP', text: 'OTP: 4821', code: '4821', source: 'OTP: 4821', reason: 'labelled', label: 'OTP' },
  { name: 'a PIN of zeros', text: 'Your new PIN 0000 works at every branch.', code: '0000', source: 'Your new PIN 0000 works at every branch.', reason: 'labelled', label: 'PIN' },
  { name: 'letters and digits', text: 'Verification code: AB12CD', code: 'AB12CD', source: 'Verification code: AB12CD', reason: 'labelled', label: 'Verification code' },
  {
    name: 'a code alone on the line after its introduction',
    text: 'Welcome aboard!\n\nEnter this code:\n\n  394-812\n\nThanks, the team',
    code: '394812',
    source: 'Enter this code: 394-812',
    reason: 'labelled',
    label: 'code',
  },
  {
    name: 'a code a sentence away from its word',
    text: 'Here is your verification code. 8841 00 is not it; 730215 is.',
    code: '730215',
    source: '8841 00 is not it; 730215 is.',
    reason: 'digits_only',
    label: 'verification code',
  },
  { name: 'Japanese', text: 'ご登録ありがとうございます。認証コード：472981\nこのコードの有効期限は30分です。', code: '472981', source: '認証コード：472981', reason: 'labelled', label: '認証コード' },
  { name: 'Arabic', text: 'مرحبا\nرمز التحقق الخاص بك هو 583920\nلا تشاركه مع أحد.', code: '583920', source: 'رمز التحقق الخاص بك هو 583920', reason: 'digits_only', label: 'رمز التحقق' },
  { name: 'German', text: 'Hallo,\nIhr Bestätigungscode lautet: 605118\nDer Code ist 15 Minuten gültig.', code: '605118', source: 'Ihr Bestätigungscode lautet: 605118', reason: 'labelled', label: 'Bestätigungscode' },
]

describe('numbers that are not codes', () => {
  for (const [name, text] of NOT_CODES) {
    it(`takes no code from ${name}`, () => {
      expect(codes(text)).toEqual([])
    })
  }
})

describe('why a code was taken', () => {
  for (const m of CODES) {
    it(`explains ${m.name}`, () => {
      const [detail, ...rest] = extractCodeDetails(m.subject ?? '', m.text)
      expect(rest).toEqual([])
      expect(detail).toEqual({ code: m.code, source: m.source, reason: m.reason, label: m.label, position: expect.any(Number) })
      // The position points at the code as the text shows it (a split code with its separator).
      expect(m.text.slice(detail!.position).replace(/[ -]/, '').startsWith(m.code)).toBe(true)
    })
  }

  it('explains a code found in subject and text by the text, where its position points', () => {
    const text = 'Someone tried to sign in. If this was you, enter 739204.'
    expect(extractCodeDetails('739204 is your Instagram code', text)).toEqual([
      { code: '739204', source: 'If this was you, enter 739204.', reason: 'digits_only', label: 'sign in', position: text.indexOf('739204') },
    ])
  })

  it('explains a code found in the subject alone by the subject', () => {
    expect(extractCodeDetails('Your code: 482913', 'Welcome to Acme.')).toEqual([
      { code: '482913', source: 'Your code: 482913', reason: 'labelled', label: 'code', position: 11 },
    ])
  })

  it('cuts a long sentence to 200 characters around the code', () => {
    const text = `${'word '.repeat(60)}your code is 482913 ${'more '.repeat(60)}`
    const [detail] = extractCodeDetails('', text)
    expect(detail!.source.length).toBeLessThanOrEqual(200)
    expect(detail!.source).toContain('your code is 482913')
  })

  it('gives details in the order and number of the codes, from HTML mail too', () => {
    const html = '<p>Enter this code to finish signing up:</p><p style="font-size:32px"><b>58 20 14</b></p><p>Code: <strong>A7K9Q2</strong></p>'
    const v = extractVerification('Confirm your email', htmlToText(html), html)
    expect(v.codeDetails.map((d) => d.code)).toEqual(v.codes)
    expect(v.codeDetails[0]).toMatchObject({ code: 'A7K9Q2', source: 'Code: A7K9Q2', reason: 'labelled', label: 'Code' })
  })
})
