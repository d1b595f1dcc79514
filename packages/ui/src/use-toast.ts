import { useEffect, useState, type ReactNode } from 'react'
import type { ToastActionElement, ToastVariant } from './toast'

// Spec §4/§9: one toast at a time; a dismissed toast stays in the store (for its exit animation) for 1,000,000 ms.
const TOAST_LIMIT = 1
const TOAST_REMOVE_DELAY_MS = 1_000_000

export type ToastOptions = {
  title?: ReactNode
  description?: ReactNode
  variant?: ToastVariant
  action?: ToastActionElement
  duration?: number
}

export type ToasterToast = ToastOptions & { id: string; open: boolean; onOpenChange: (open: boolean) => void }

type State = { toasts: ToasterToast[] }

let count = 0
let memoryState: State = { toasts: [] }
const listeners = new Set<(state: State) => void>()
const removeTimers = new Map<string, ReturnType<typeof setTimeout>>()

function setState(next: State) {
  memoryState = next
  for (const listener of listeners) listener(memoryState)
}

function scheduleRemoval(id: string) {
  if (removeTimers.has(id)) return
  removeTimers.set(
    id,
    setTimeout(() => {
      removeTimers.delete(id)
      setState({ toasts: memoryState.toasts.filter((t) => t.id !== id) })
    }, TOAST_REMOVE_DELAY_MS),
  )
}

/** Closes one toast, or all when no id is given. */
export function dismissToast(id?: string) {
  for (const t of memoryState.toasts) if (id === undefined || t.id === id) scheduleRemoval(t.id)
  setState({ toasts: memoryState.toasts.map((t) => (id === undefined || t.id === id ? { ...t, open: false } : t)) })
}

/** Shows a toast; it replaces any toast already on screen. */
export function toast(options: ToastOptions) {
  count = (count + 1) % Number.MAX_SAFE_INTEGER
  const id = String(count)
  const update = (next: ToastOptions) => setState({ toasts: memoryState.toasts.map((t) => (t.id === id ? { ...t, ...next } : t)) })
  const dismiss = () => dismissToast(id)
  const entry: ToasterToast = {
    ...options,
    id,
    open: true,
    onOpenChange: (open) => {
      if (!open) dismiss()
    },
  }
  setState({ toasts: [entry, ...memoryState.toasts].slice(0, TOAST_LIMIT) })
  return { id, dismiss, update }
}

/** The current toasts plus `toast` and `dismiss`, re-rendering when they change. */
export function useToast() {
  const [state, setLocal] = useState<State>(memoryState)
  useEffect(() => {
    listeners.add(setLocal)
    return () => {
      listeners.delete(setLocal)
    }
  }, [])
  return { ...state, toast, dismiss: dismissToast }
}
