import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, totalmem } from 'node:os'
import { join } from 'node:path'

/** Replaces (or appends) the section starting with `heading` in BENCHMARKS.md, leaving the others alone. */
export function writeBenchmarkSection(repoRoot: string, heading: string, body: string): void {
  const file = join(repoRoot, 'BENCHMARKS.md')
  const current = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n\n'
  const section = `${heading}\n\n${body.trim()}\n`
  const start = current.indexOf(`${heading}\n`)
  if (start < 0) {
    writeFileSync(file, `${current.trimEnd()}\n\n${section}`)
    return
  }
  const rest = current.slice(start + heading.length)
  const next = rest.search(/^## /m)
  const end = next < 0 ? current.length : start + heading.length + next
  const tail = current.slice(end)
  writeFileSync(file, `${current.slice(0, start)}${section}${tail ? `\n${tail}` : ''}`)
}

export function machineLine(): string {
  const cpu = cpus()
  return `${new Date().toISOString().slice(0, 10)}, ${cpu.length} × ${cpu[0]?.model.trim() ?? 'CPU'}, ${(totalmem() / 2 ** 30).toFixed(1)} GB RAM, Node ${process.version}; load generator on the same machine; 1-min load average at the end ${loadavg()[0]!.toFixed(1)} (other work was running on the shared cores)`
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
}
