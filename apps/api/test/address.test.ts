import { describe, expect, it } from 'vitest'
import { AppError } from '../src/errors.js'
import { parseAddress, validateLocalPart } from '../src/services/inboxes/address.js'

/** The refusal a rule answers with: code, sentence and the field hint a person reads. */
function refusal(run: () => unknown): { code: string; message: string; fields?: Record<string, string> } {
  try {
    run()
  } catch (error) {
    expect(error).toBeInstanceOf(AppError)
    const { code, message, fields } = error as AppError
    return { code, message, ...(fields ? { fields } : {}) }
  }
  throw new Error('expected a refusal')
}

const LENGTH = { code: 'invalid_address', message: 'The name must be between 1 and 64 characters long.', fields: { localPart: 'Use 1 to 64 characters.' } }
const CHARACTERS = {
  code: 'invalid_address',
  message: 'The name may only use letters, digits and . _ - + characters, with no dot at the start, the end or twice in a row.',
  fields: { localPart: 'Use letters, digits and . _ - + only.' },
}
const TOO_SHORT = {
  code: 'invalid_address',
  message: 'Choose a name of at least 6 characters: shorter names are easy for others to guess.',
  fields: { localPart: 'Use at least 6 characters.' },
}
const reserved = (local: string) => ({ code: 'address_reserved', message: `The name "${local}" is reserved. Please choose another one.`, fields: { localPart: 'This name is reserved.' } })

describe('a chosen name (validateLocalPart)', () => {
  it('is trimmed and lower-cased', () => {
    expect(validateLocalPart('  My.Tests+CI ')).toBe('my.tests+ci')
  })

  it('has 6 to 64 characters', () => {
    expect(validateLocalPart('abcdef')).toBe('abcdef')
    expect(validateLocalPart('a'.repeat(64))).toBe('a'.repeat(64))
    expect(refusal(() => validateLocalPart('abcde'))).toEqual(TOO_SHORT)
    expect(refusal(() => validateLocalPart('a'.repeat(65)))).toEqual(LENGTH)
    expect(refusal(() => validateLocalPart('   '))).toEqual(LENGTH)
  })

  it('is a dot-atom: no dot first, last or twice, no spaces or other characters', () => {
    expect(validateLocalPart('first.last_x-y+z')).toBe('first.last_x-y+z')
    for (const bad of ['.abcdef', 'abcdef.', 'abc..def', 'abc def', 'abc@def', 'abc"def', 'abcdé1']) {
      expect(refusal(() => validateLocalPart(bad)), bad).toEqual(CHARACTERS)
    }
  })

  it('is none of the names that reach an administrator, however it is dressed', () => {
    expect(refusal(() => validateLocalPart('Postmaster'))).toEqual(reserved('postmaster'))
    expect(refusal(() => validateLocalPart('admin'))).toEqual(reserved('admin'))
    // Dots, dashes and underscores are left out and a +tag is cut off before comparing.
    expect(refusal(() => validateLocalPart('no_reply'))).toEqual(reserved('no_reply'))
    expect(refusal(() => validateLocalPart('post.master'))).toEqual(reserved('post.master'))
    expect(refusal(() => validateLocalPart('abuse+anything'))).toEqual(reserved('abuse+anything'))
    expect(validateLocalPart('anything+abuse')).toBe('anything+abuse')
    expect(validateLocalPart('administrators')).toBe('administrators')
  })
})

describe('an address in a URL (parseAddress)', () => {
  const INVALID = { code: 'invalid_address', message: 'That is not a valid email address.' }

  it('is percent-decoded, trimmed and lower-cased, split at its last @', () => {
    expect(parseAddress('%20Me.Too%2Btag@Tempbox.Test')).toEqual({ address: 'me.too+tag@tempbox.test', localPart: 'me.too+tag', domain: 'tempbox.test' })
    // A stray % that does not decode is read as written (% is allowed in a local part).
    expect(parseAddress('Me%zz@tempbox.test').localPart).toBe('me%zz')
  })

  it('has a local part of 1 to 64 characters that is a dot-atom', () => {
    expect(parseAddress('a@tempbox.test').localPart).toBe('a')
    expect(parseAddress(`${'a'.repeat(64)}@tempbox.test`).localPart).toBe('a'.repeat(64))
    for (const bad of ['@tempbox.test', `${'a'.repeat(65)}@tempbox.test`, 'a..b@tempbox.test', '.a@tempbox.test', 'a@b@tempbox.test', 'tempbox.test', '']) {
      expect(refusal(() => parseAddress(bad)), bad).toEqual(INVALID)
    }
  })

  it('has a domain of labels of at most 63 characters, no dash at their ends, 253 characters in all', () => {
    expect(parseAddress('a@x.example').domain).toBe('x.example')
    expect(parseAddress(`a@${'b'.repeat(63)}.test`).domain).toBe(`${'b'.repeat(63)}.test`)
    expect(parseAddress('a@my-host.test').domain).toBe('my-host.test')
    for (const bad of ['a@', `a@${'b'.repeat(64)}.test`, 'a@-host.test', 'a@host-.test', 'a@host..test', 'a@host_1.test', 'a@.test']) {
      expect(refusal(() => parseAddress(bad)), bad).toEqual(INVALID)
    }
  })

  it('is 254 characters at most', () => {
    const label = 'c'.repeat(60)
    const domain = `${label}.${label}.${label}.${'c'.repeat(55)}` // 238 characters
    expect(domain).toHaveLength(238)
    expect(parseAddress(`${'a'.repeat(15)}@${domain}`).address).toHaveLength(254)
    expect(refusal(() => parseAddress(`${'a'.repeat(16)}@${domain}`))).toEqual(INVALID)
  })
})
