import { describe, expect, it } from 'vitest'
import { duration, intReader, onOff } from '../src/index.js'

describe('intReader', () => {
  it('reads whole numbers at or above the minimum, and the fallback when the variable is unset or empty', () => {
    const problems: string[] = []
    const int = intReader({ PORT: '8080', ZERO: '0', EMPTY: '', AT_MIN: '1024' }, problems)
    expect([int('PORT', 3000), int('ZERO', 5), int('EMPTY', 7), int('UNSET', 9), int('AT_MIN', 1, 1024)]).toEqual([8080, 0, 7, 9, 1024])
    expect(problems).toEqual([])
  })

  it('says which variable is wrong, its minimum and what it got, and goes on with the fallback', () => {
    const problems: string[] = []
    const int = intReader({ LOW: '0', FRACTION: '1.5', WORD: '15m', NEGATIVE: '-1' }, problems)
    expect([int('LOW', 20, 1), int('FRACTION', 2, 1), int('WORD', 3), int('NEGATIVE', 4)]).toEqual([20, 2, 3, 4])
    expect(problems).toEqual([
      'LOW must be an integer ≥ 1 (got "0")',
      'FRACTION must be an integer ≥ 1 (got "1.5")',
      'WORD must be an integer ≥ 0 (got "15m")',
      'NEGATIVE must be an integer ≥ 0 (got "-1")',
    ])
  })
})

describe('onOff', () => {
  it('reads on and off in any case and with spaces around, and the fallback when unset or empty', () => {
    const problems: string[] = []
    const env = { A: 'on', B: ' OFF ', C: 'On', EMPTY: '  ' }
    expect([onOff(env, 'A', false, problems), onOff(env, 'B', true, problems), onOff(env, 'C', false, problems)]).toEqual([true, false, true])
    expect([onOff(env, 'EMPTY', true, problems), onOff(env, 'UNSET', false, problems)]).toEqual([true, false])
    expect(problems).toEqual([])
  })

  it('refuses anything else, as written, and goes on with the fallback', () => {
    const problems: string[] = []
    expect([onOff({ X: 'Yes' }, 'X', true, problems), onOff({ Y: 'true' }, 'Y', false, problems)]).toEqual([true, false])
    expect(problems).toEqual(['X must be "on" or "off" (got "Yes")', 'Y must be "on" or "off" (got "true")'])
  })
})

describe('duration', () => {
  it('reads seconds (bare or with s), minutes, hours and days as milliseconds, and the fallback when unset or blank', () => {
    const problems: string[] = []
    const read = (raw: string | undefined) => duration('TTL', raw, 42_000, problems)
    expect([read('900'), read('900s'), read(' 15m '), read('12h'), read('7d'), read('1'), read(undefined), read(' ')]).toEqual([
      900_000, 900_000, 900_000, 43_200_000, 604_800_000, 1000, 42_000, 42_000,
    ])
    expect(problems).toEqual([])
  })

  it('refuses less than a second, other units and fractions, with one sentence naming the forms it takes', () => {
    for (const raw of ['0', '0s', '1.5h', '15 minutes', '-5m', 'm', '99999999999999999d']) {
      const problems: string[] = []
      expect(duration('ACCESS_TOKEN_TTL', raw, 60_000, problems)).toBe(60_000)
      expect(problems).toEqual([`ACCESS_TOKEN_TTL must be a duration of at least a second such as 900, 15m, 12h or 7d (got "${raw}")`])
    }
  })
})
