import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { LANGUAGES } from '../src/languages'

const LOCALES = join(import.meta.dirname, '..', 'locales')

/** Every leaf path of a table: `a.b.0.c`; arrays count by index so a shorter list is a missing key. */
function leafKeys(value: unknown, prefix = ''): string[] {
  if (value !== null && typeof value === 'object') {
    return Object.entries(value as Record<string, unknown>).flatMap(([k, v]) => leafKeys(v, prefix ? `${prefix}.${k}` : k))
  }
  return [prefix]
}

function readTable(lng: string, file: string): unknown {
  return JSON.parse(readFileSync(join(LOCALES, lng, file), 'utf8'))
}

const namespaces = readdirSync(join(LOCALES, 'en')).filter((f) => f.endsWith('.json'))

describe('translation tables', () => {
  it('has a folder for each of the 24 languages', () => {
    const folders = readdirSync(LOCALES).sort()
    expect(folders).toEqual(LANGUAGES.map((l) => l.code).sort())
  })

  for (const file of namespaces) {
    const english = leafKeys(readTable('en', file))
    for (const { code } of LANGUAGES.filter((l) => l.code !== 'en')) {
      it(`${code}/${file} has every key English has`, () => {
        let keys: string[]
        try {
          keys = leafKeys(readTable(code, file))
        } catch (err) {
          throw new Error(`${code}/${file} is missing or not valid JSON: ${(err as Error).message}`, { cause: err })
        }
        const present = new Set(keys)
        expect(english.filter((k) => !present.has(k))).toEqual([])
      })
    }
  }

  it('keeps interpolation placeholders in every translation', () => {
    const problems: string[] = []
    for (const file of namespaces) {
      const english = readTable('en', file)
      for (const { code } of LANGUAGES.filter((l) => l.code !== 'en')) {
        let other: unknown
        try {
          other = readTable(code, file)
        } catch {
          continue
        }
        for (const key of leafKeys(english)) {
          const get = (t: unknown) => key.split('.').reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], t)
          const source = get(english)
          const target = get(other)
          if (typeof source !== 'string' || typeof target !== 'string') continue
          const vars = (s: string) => [...s.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort()
          if (vars(source).join() !== vars(target).join()) problems.push(`${code}/${file} ${key}`)
        }
      }
    }
    expect(problems).toEqual([])
  })
})
