import { readFileSync } from 'node:fs'

/** One look at a process's memory from Linux /proc, in MB. */
export interface MemorySample {
  rssMb: number
  /** VmHWM: the highest resident size the kernel has seen, so a peak between two samples still counts. */
  peakMb: number
  threads: number
  /** smaps_rollup: anonymous pages (heaps, stacks, malloc) against file-backed ones (code, mmapped files). */
  anonMb: number
  fileMb: number
}

function field(text: string, name: string): number {
  const match = new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(text)
  return match ? Number(match[1]) : Number.NaN
}

export function sampleMemory(pid: number): MemorySample | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8')
    const rss = field(rollup, 'Rss')
    const anon = field(rollup, 'Anonymous')
    return { rssMb: field(status, 'VmRSS') / 1024, peakMb: field(status, 'VmHWM') / 1024, threads: field(status, 'Threads'), anonMb: anon / 1024, fileMb: (rss - anon) / 1024 }
  } catch {
    return null
  }
}

/**
 * The main thread's V8 heap (used, total) in MB from a process's Prometheus endpoint (prom-client's default metrics), and
 * of that total the new space's: the young generation, which grows up to 2 × 16 MB under a high allocation rate.
 */
export async function v8HeapMb(metricsUrl: string): Promise<{ usedMb: number; totalMb: number; newSpaceMb: number } | null> {
  try {
    const text = await (await fetch(metricsUrl)).text()
    const value = (name: string) => Number(new RegExp(`^\\w*${name} (\\S+)$`, 'm').exec(text)?.[1]) / 2 ** 20
    return { usedMb: value('nodejs_heap_size_used_bytes'), totalMb: value('nodejs_heap_size_total_bytes'), newSpaceMb: value('nodejs_heap_space_size_total_bytes\\{space="new"\\}') }
  } catch {
    return null
  }
}

/** Where a process said its metrics endpoint listens (`[metrics] listening on host:port`). */
export function metricsUrl(output: string): string | null {
  const match = /\[metrics\] listening on ([\w.:[\]]+):(\d+)/.exec(output)
  return match ? `http://${match[1]}:${match[2]}/metrics` : null
}
