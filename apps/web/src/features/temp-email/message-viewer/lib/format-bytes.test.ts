import { describe, expect, it } from 'vitest'
import { formatBytes } from './format-bytes'

describe('formatBytes', () => {
  it('rounds as people say sizes, in the reader’s number format', () => {
    expect(formatBytes(512, 'en')).toEqual({ value: '512', unit: 'b' })
    expect(formatBytes(13 * 1024 + 300, 'en')).toEqual({ value: '13', unit: 'kb' })
    expect(formatBytes(1.44 * 1024 * 1024, 'en')).toEqual({ value: '1.4', unit: 'mb' })
    expect(formatBytes(1.44 * 1024 * 1024, 'de')).toEqual({ value: '1,4', unit: 'mb' })
  })
})
