import { create } from 'zustand'
import { persist } from 'zustand/middleware'
import type { ShortLink } from '@tempbox/types'

/** Most links a browser remembers; older ones drop off the end of the list. */
const MAX_LINKS = 100

/** A link as this browser keeps it: with the secret that alone shows its clicks (links from before secrets have none). */
export type StoredLink = ShortLink & { secret?: string }

interface LinkState {
  /** The visitor's links, newest first (spec §2). Kept in localStorage so they survive reloads. */
  links: StoredLink[]
  add: (link: StoredLink) => void
  /** Fresh click counts from the server; links the server does not show are kept as they were. */
  refresh: (fresh: ShortLink[]) => void
  remove: (code: string) => void
}

export const useLinkStore = create<LinkState>()(
  persist(
    (set) => ({
      links: [],
      add: (link) => set((s) => ({ links: [link, ...s.links.filter((l) => l.code !== link.code)].slice(0, MAX_LINKS) })),
      refresh: (fresh) =>
        set((s) => {
          const byCode = new Map(fresh.map((l) => [l.code, l]))
          return { links: s.links.map((l) => ({ ...l, ...byCode.get(l.code) })) }
        }),
      remove: (code) => set((s) => ({ links: s.links.filter((l) => l.code !== code) })),
    }),
    { name: 'tempbox-short-links', version: 1 },
  ),
)
