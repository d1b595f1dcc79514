import { expect, it } from 'vitest'
import { flagOf } from './flag'

it('turns a country code into its flag', () => {
  expect(flagOf('US')).toBe('🇺🇸')
  expect(flagOf('gb')).toBe('🇬🇧')
  expect(flagOf(null)).toBe('')
  expect(flagOf('XYZ')).toBe('')
})
