import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

export const fmt = (v: number, digits: number) => v.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })

/** "median (min–max)" of repeated runs, or just the value of a single one. */
export function spread(values: number[], digits: number): string {
  if (values.length === 1) return fmt(values[0]!, digits)
  return `${fmt(median(values), digits)} (${fmt(Math.min(...values), digits)}–${fmt(Math.max(...values), digits)})`
}

/** The .eml files of the real-mail corpus (tests/fixtures/real-mail), sorted; its licence texts left out. */
export function realMailFiles(repoRoot: string): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name)
      if (statSync(path).isDirectory()) return name === 'LICENSES' ? [] : walk(path)
      return name.endsWith('.eml') ? [path] : []
    })
  return walk(join(repoRoot, 'tests/fixtures/real-mail')).sort()
}
