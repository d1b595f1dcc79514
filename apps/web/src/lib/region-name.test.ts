import { afterEach, describe, expect, it, vi } from 'vitest'
import { countDisplayNames } from '../testing/count-display-names'
import { regionName } from './region-name'

afterEach(() => {
  vi.restoreAllMocks()
})

// Languages no other test reads in, since the tables are kept for the page's life.
describe('regionName', () => {
  it("names a region in the reader's language, from one table per language", () => {
    const made = countDisplayNames()
    expect(regionName('DE', 'fi')).toBe('Saksa')
    expect(regionName('JP', 'fi')).toBe('Japani')
    expect(regionName('DE', 'cy')).toBe('Yr Almaen')
    expect(made).toHaveBeenCalledTimes(2)
  })

  it('says nothing for a code no region has or a language the browser refuses, so callers show their own name', () => {
    expect(regionName('not a region', 'fi')).toBeUndefined()
    expect(regionName('DE', 'not a language!')).toBeUndefined()
  })
})
