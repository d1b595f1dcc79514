import { describe, expect, it } from 'vitest'
import { decodeUnstructured } from '../support/rfc2047.js'

/** The decoder the corpus test checks ingest's subjects against must itself read RFC 2047 right. */
describe('the independent RFC 2047 decoder of the corpus test', () => {
  it.each([
    // RFC 2047 §8, the examples' text between the parentheses.
    ['=?ISO-8859-1?Q?a?=', 'a'],
    ['=?ISO-8859-1?Q?a?= b', 'a b'],
    ['=?ISO-8859-1?Q?a?= =?ISO-8859-1?Q?b?=', 'ab'],
    ['=?ISO-8859-1?Q?a?=  =?ISO-8859-1?Q?b?=', 'ab'],
    ['=?ISO-8859-1?Q?a?=     =?ISO-8859-1?Q?b?=', 'ab'],
    ['=?ISO-8859-1?Q?a_b?=', 'a b'],
    ['=?ISO-8859-1?Q?a?= =?ISO-8859-2?Q?_b?=', 'a b'],
    // §8's header examples.
    ['=?ISO-8859-1?Q?Andr=E9?= Pirard', 'André Pirard'],
    ['=?ISO-8859-1?B?SWYgeW91IGNhbiByZWFkIHRoaXMgeW8=?= =?ISO-8859-2?B?dSB1bmRlcnN0YW5kIHRoZSBleGFtcGxlLg==?=', 'If you can read this you understand the example.'],
    // Text between a word and plain text keeps its space; RFC 2231's *language names no bytes.
    ['Re: =?UTF-8?B?w6nDqQ==?= ok', 'Re: éé ok'],
    ['=?UTF-8*en?Q?hi?=', 'hi'],
    // Self-contained ISO-2022-JP words, each decoded alone.
    ['=?ISO-2022-JP?B?GyRCJUYlOSVIGyhC?= =?ISO-2022-JP?B?GyRCJUYlOSVIGyhC?=', 'テストテスト'],
    // A UTF-8 character split across two words (é = C3 A9) still reads as meant.
    ['=?UTF-8?Q?caf=C3?= =?UTF-8?Q?=A9?=', 'café'],
    // An unknown charset: shown as text when its bytes are ASCII, as written otherwise (§6.3).
    ['=?x-unknown?B?VEVTVA==?=', 'TEST'],
    ['=?x-unknown?Q?=FF?=', '=?x-unknown?Q?=FF?='],
  ])('reads %s as %s', (value, expected) => {
    expect(decodeUnstructured(value)).toBe(expected)
  })
})
