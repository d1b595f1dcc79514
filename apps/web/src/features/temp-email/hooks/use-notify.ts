import { create } from 'zustand'

export interface Notice {
  title: string
  description?: string
  variant?: 'default' | 'destructive'
}

interface NoticeState {
  current: (Notice & { id: number }) | null
  show: (notice: Notice) => void
  dismiss: () => void
}

/** Display time of a toast (spec §4). */
export const NOTICE_MS = 5000

let nextId = 1
let timer: ReturnType<typeof setTimeout> | undefined

/** One toast at a time (spec §4): a new one replaces the previous. */
export const useNotices = create<NoticeState>()((set) => ({
  current: null,
  show: (notice) => {
    clearTimeout(timer)
    const id = nextId++
    set({ current: { ...notice, id } })
    timer = setTimeout(() => set((s) => (s.current?.id === id ? { current: null } : s)), NOTICE_MS)
  },
  dismiss: () => set({ current: null }),
}))

export type Notify = (notice: Notice) => void

/** The tool's toast function. */
export function useNotify(): Notify {
  return useNotices((s) => s.show)
}
