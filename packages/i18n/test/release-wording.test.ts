import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { LANGUAGES } from '../src/languages'

const LOCALES = join(import.meta.dirname, '..', 'locales')

/** Every text of email.json where the reader is told about releasing an address (issue 32). */
const RELEASE_KEYS = [
  'toast.releasedTitle',
  'toast.releaseFailed',
  'releaseOld',
  'kept.release',
  'kept.releasing',
  'kept.releaseConfirm',
  'kept.releaseTitle',
  'limitNetwork',
]

/** Each language's one verb for letting an address go, in all its forms in those texts. */
const RELEASE_VERB: Record<string, RegExp> = {
  ar: /تخل/,
  da: /frigiv/i,
  de: /aufgeb|aufgegeb|geben sie eine auf/i,
  el: /αποδ[εέ]σμ/i,
  en: /releas/i,
  es: /liber/i,
  fr: /libér/i,
  he: /שו?חר/,
  hi: /छोड़/,
  id: /lepas/i,
  it: /liber/i,
  ja: /手放/,
  ko: /반납/,
  nl: /vrijge|geef .* vrij/i,
  no: /frigi/i,
  pl: /zwoln|zwaln/i,
  pt: /descart/i,
  ru: /освобо/i,
  sv: /släpp/i,
  th: /ปล่อย/,
  tr: /bırak/i,
  ur: /چھوڑ/,
  vi: /từ bỏ/i,
  zh: /释放/,
}

/** Words once used for "release" that a reader takes for another action. */
const MISREAD: Record<string, [RegExp, string][]> = {
  ar: [[/تحرير|حرر/, 'Edit']],
  de: [[/freigeb|freigegeb/i, 'Share, as in Windows']],
  ko: [[/해제/, 'Unlock or Deselect']],
  pt: [[/liber/i, 'Unblock or Allow']],
  vi: [[/giải phóng/i, 'Liberate']],
}

function text(code: string, key: string): string {
  const table = JSON.parse(readFileSync(join(LOCALES, code, 'email.json'), 'utf8')) as unknown
  const value = key.split('.').reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], table)
  if (typeof value !== 'string') throw new Error(`${code}/email.json has no text at ${key}`)
  return value
}

describe('the word for releasing an address', () => {
  it('is chosen for every language', () => {
    expect(Object.keys(RELEASE_VERB).sort()).toEqual(LANGUAGES.map((l) => l.code).sort())
  })

  for (const { code } of LANGUAGES) {
    it(`${code}: one verb for letting the address go, in every text that releases`, () => {
      const off = RELEASE_KEYS.filter((key) => !RELEASE_VERB[code]!.test(text(code, key))).map((key) => `${key}: ${text(code, key)}`)
      expect(off).toEqual([])
      const misread = (MISREAD[code] ?? []).flatMap(([word, reads]) =>
        RELEASE_KEYS.filter((key) => word.test(text(code, key))).map((key) => `${key} reads as "${reads}": ${text(code, key)}`),
      )
      expect(misread).toEqual([])
    })
  }
})
