import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../support/stack.js'

/** The docs a reader follows links through: the top-level guides, docs/ and patches/README.md. */
const DOCS = [
  'README.md', 'ARCHITECTURE.md', 'TESTING.md', 'BENCHMARKS.md', 'patches/README.md',
  ...readdirSync(join(REPO_ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`),
]

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function anchorOf(heading: string): string {
  return heading.trim().toLowerCase().replace(/`/g, '').replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-')
}

function anchorsIn(path: string): Set<string> {
  const text = readFileSync(path, 'utf8').replace(/^```[\s\S]*?^```$/gm, '')
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchorOf(m[1]!)))
}

describe('links between the docs', () => {
  it.each(DOCS)('every relative link of %s reaches a file, and a heading when it names one', (doc) => {
    const file = join(REPO_ROOT, doc)
    const text = readFileSync(file, 'utf8').replace(/^```[\s\S]*?^```$/gm, '')
    const broken: string[] = []
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target!)) continue
      const [path, anchor] = target!.split('#') as [string, string | undefined]
      const resolved = path === '' ? file : join(dirname(file), path)
      if (!existsSync(resolved)) broken.push(`${target} (no file ${relative(REPO_ROOT, resolved)})`)
      else if (anchor && resolved.endsWith('.md') && !anchorsIn(resolved).has(anchor)) broken.push(`${target} (no heading #${anchor})`)
    }
    expect(broken).toEqual([])
  })
})
