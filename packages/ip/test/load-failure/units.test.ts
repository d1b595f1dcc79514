import { expect, it } from 'vitest'
import { KILOBYTE } from './units.js'

it('a kilobyte is 1024 bytes', () => {
  expect(KILOBYTE).toBe(1024)
})
