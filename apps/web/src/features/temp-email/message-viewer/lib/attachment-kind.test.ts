import { describe, expect, it } from 'vitest'
import { fileKind } from './attachment-kind'

describe('fileKind', () => {
  it('names common attachments as people say them', () => {
    expect(fileKind('application/pdf')).toEqual({ kind: 'pdf' })
    expect(fileKind('image/png')).toEqual({ kind: 'image', format: 'PNG' })
    expect(fileKind('image/jpg')).toEqual({ kind: 'image', format: 'JPEG' })
    expect(fileKind('image/svg+xml')).toEqual({ kind: 'image', format: 'SVG' })
    expect(fileKind('application/vnd.openxmlformats-officedocument.wordprocessingml.document')).toEqual({ kind: 'document' })
    expect(fileKind('text/calendar; method=REQUEST')).toEqual({ kind: 'calendar' })
    expect(fileKind('APPLICATION/ZIP')).toEqual({ kind: 'archive' })
  })

  it('falls back to a plain "file" for types it does not know', () => {
    expect(fileKind('application/octet-stream')).toEqual({ kind: 'file' })
    expect(fileKind('')).toEqual({ kind: 'file' })
  })
})
