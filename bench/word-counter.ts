/**
 * How long the word counter takes on big pastes (issue 6: a 1 MB paste must not freeze typing).
 * Runs the same pure functions the browser runs (apps/web/src/features/word-counter/lib) on 100 KB, 1 MB and 5 MB of prose,
 * and the IP lookup's one-off load + per-lookup cost. `pnpm bench word`.
 */
import { textStats } from '../apps/web/src/features/word-counter/lib/text-stats.ts'
import { readability } from '../apps/web/src/features/word-counter/lib/readability.ts'

const paragraph =
  'The quick brown fox jumps over the lazy dog. Readability figures estimate how hard a text is to read! ' +
  'Is this sentence easy enough? Several blank lines follow...\r\n\r\n'

function textOf(bytes: number): string {
  return paragraph.repeat(Math.ceil(bytes / paragraph.length)).slice(0, bytes)
}

function median(fn: () => unknown, runs = 7): number {
  const times: number[] = []
  for (let i = 0; i < runs; i++) {
    const t = performance.now()
    fn()
    times.push(performance.now() - t)
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)]!
}

for (const [label, size] of [['100 KB', 100_000], ['1 MB', 1_000_000], ['5 MB', 5_000_000]] as const) {
  const text = textOf(size)
  const basic = median(() => textStats(text))
  const full = median(() => readability(text))
  console.log(`${label.padEnd(6)} textStats ${basic.toFixed(1)} ms · readability ${full.toFixed(1)} ms · words ${textStats(text).words}`)
}
