import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, totalmem } from 'node:os'
import { join } from 'node:path'

/**
 * Heading of a section's hand-written part: context a script cannot measure (design, how to read the tables). It
 * states no figures, and a script rewriting its section keeps it, so no script has to carry prose of its own.
 */
export const HAND_WRITTEN_HEADING = '### Hand-written notes'

/**
 * Replaces (or appends) the section starting with `heading` in BENCHMARKS.md, leaving the others alone and keeping the
 * section's hand-written notes (from HAND_WRITTEN_HEADING to the section's end) below the new body.
 */
export function writeBenchmarkSection(repoRoot: string, heading: string, body: string): void {
  const file = join(repoRoot, 'BENCHMARKS.md')
  const current = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n\n'
  const start = current.indexOf(`${heading}\n`)
  if (start < 0) {
    writeFileSync(file, `${current.trimEnd()}\n\n${heading}\n\n${body.trim()}\n`)
    return
  }
  const rest = current.slice(start + heading.length)
  const next = rest.search(/^## /m)
  const end = next < 0 ? current.length : start + heading.length + next
  const old = current.slice(start, end)
  const notesAt = old.indexOf(`\n${HAND_WRITTEN_HEADING}`)
  const notes = notesAt < 0 ? '' : `\n${old.slice(notesAt + 1).trim()}\n`
  const section = `${heading}\n\n${body.trim()}\n${notes}`
  const tail = current.slice(end)
  writeFileSync(file, `${current.slice(0, start)}${section}${tail ? `\n${tail}` : ''}`)
}

/** `load`: what was measured of the machine's load during the run (BenchRun.load()); by default its value at the end. */
export function machineLine(load = `1-min load average at the end ${loadavg()[0]!.toFixed(1)}`): string {
  const cpu = cpus()
  return `${new Date().toISOString().slice(0, 10)}, ${cpu.length} × ${cpu[0]?.model.trim() ?? 'CPU'}, ${(totalmem() / 2 ** 30).toFixed(1)} GB RAM, Node ${process.version}; load generator on the same machine; ${load}`
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
}
