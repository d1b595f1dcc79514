import { useEffect, useRef, useState } from 'react'
import { analyse, type TextAnalysis } from '../lib/analyse'

/**
 * Below this size the figures are computed on the spot (a few ms). Above it (a 1 MB paste takes ~300 ms,
 * see BENCHMARKS.md) they are computed in a Web Worker, after a short pause in typing, and the last figures stay shown.
 */
const SYNC_LIMIT = 50_000
const DEBOUNCE_MS = 150

export function useTextAnalysis(text: string): { analysis: TextAnalysis; pending: boolean } {
  const [result, setResult] = useState<{ text: string; analysis: TextAnalysis }>(() => ({ text, analysis: analyse(text.length <= SYNC_LIMIT ? text : '') }))
  const worker = useRef<Worker | null>(null)
  const lastId = useRef(0)
  const small = text.length <= SYNC_LIMIT

  useEffect(() => {
    if (small) return
    const id = ++lastId.current
    const timer = setTimeout(() => {
      if (typeof Worker === 'undefined') {
        setResult({ text, analysis: analyse(text) })
        return
      }
      worker.current ??= new Worker(new URL('../lib/analyse.worker.ts', import.meta.url), { type: 'module' })
      worker.current.onmessage = (event: MessageEvent<{ id: number; result: TextAnalysis }>) => {
        // Only the answer for the latest text counts; older ones are dropped.
        if (event.data.id === lastId.current) setResult({ text, analysis: event.data.result })
      }
      worker.current.postMessage({ id, text })
    }, DEBOUNCE_MS)
    return () => clearTimeout(timer)
  }, [text, small])

  useEffect(() => () => worker.current?.terminate(), [])

  if (small) return { analysis: syncAnalysis(text), pending: false }
  return { analysis: result.analysis, pending: result.text !== text }
}

// Typing re-renders with the same text are common (focus, toasts); don't recount them.
let cache: { text: string; analysis: TextAnalysis } | null = null
function syncAnalysis(text: string): TextAnalysis {
  if (cache?.text !== text) cache = { text, analysis: analyse(text) }
  return cache.analysis
}
