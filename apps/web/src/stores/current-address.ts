import { create } from 'zustand'
import { createJSONStorage, persist } from 'zustand/middleware'

/** localStorage key holding the current temporary address. */
export const CURRENT_ADDRESS_KEY = 'tempbox-current-address'

interface CurrentAddressState {
  email: string | null
  /** Epoch ms after which the address no longer exists on the server. */
  expiresAt: number | null
  setAddress: (email: string, expiresAt: number | string) => void
  clear: () => void
}

function toEpoch(value: number | string): number {
  return typeof value === 'number' ? value : Date.parse(value)
}

/**
 * The address the temp-email tool shows. Persisted so a reload keeps it; an expired one is dropped on
 * load (the server has deleted it and its mail by then).
 */
export const useCurrentAddress = create<CurrentAddressState>()(
  persist(
    (set) => ({
      email: null,
      expiresAt: null,
      setAddress: (email, expiresAt) => set({ email, expiresAt: toEpoch(expiresAt) }),
      clear: () => set({ email: null, expiresAt: null }),
    }),
    {
      name: CURRENT_ADDRESS_KEY,
      storage: createJSONStorage(() => localStorage),
      partialize: (s) => ({ email: s.email, expiresAt: s.expiresAt }),
      merge: (persisted, current) => {
        const p = persisted as Partial<CurrentAddressState> | undefined
        if (!p?.email || typeof p.expiresAt !== 'number' || p.expiresAt <= Date.now()) return current
        return { ...current, email: p.email, expiresAt: p.expiresAt }
      },
    },
  ),
)
