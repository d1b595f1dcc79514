import { create } from 'zustand'
import { createJSONStorage, persist } from 'zustand/middleware'

/** localStorage key holding the current temporary address and the others this browser keeps. */
export const CURRENT_ADDRESS_KEY = 'tempbox-current-address'

/** An address this browser created or opened, kept so its holder can come back to it until it expires. */
export interface KeptAddress {
  email: string
  /** Epoch ms after which the address no longer exists on the server. */
  expiresAt: number
}

/**
 * The server lets one client hold this many active addresses (MAX_ACTIVE_ADDRESSES_PER_IP's default); the browser
 * keeps a few more, since an account's or another device's addresses can be opened here too.
 */
const MAX_KEPT = 20

interface CurrentAddressState {
  email: string | null
  /** Epoch ms after which the address no longer exists on the server. */
  expiresAt: number | null
  /** This browser's live addresses, newest first (the current one among them). */
  addresses: KeptAddress[]
  /** Shows `email` in the inbox and keeps it in the list. */
  setAddress: (email: string, expiresAt: number | string) => void
  /** The current address is gone (expired, or deleted with an account): it leaves the list too. */
  clear: () => void
  /** Takes an address off the list (released); when it was the current one, there is none. */
  forget: (email: string) => void
  /** Adds addresses kept elsewhere (an account's, on signing in) after this browser's own, the current one unchanged. */
  keep: (addresses: KeptAddress[]) => void
}

function toEpoch(value: number | string): number {
  return typeof value === 'number' ? value : Date.parse(value)
}

function isKept(value: unknown): value is KeptAddress {
  const a = value as KeptAddress
  return typeof a?.email === 'string' && typeof a.expiresAt === 'number'
}

/**
 * The address the temp-email tool shows, and the other live addresses of this browser. Persisted so a reload keeps
 * them; expired ones are dropped on load (the server has deleted them and their mail by then).
 */
export const useCurrentAddress = create<CurrentAddressState>()(
  persist(
    (set) => ({
      email: null,
      expiresAt: null,
      addresses: [],
      setAddress: (email, expiresAt) =>
        set((s) => {
          const at = toEpoch(expiresAt)
          const others = s.addresses.filter((a) => a.email !== email)
          return { email, expiresAt: at, addresses: [{ email, expiresAt: at }, ...others].slice(0, MAX_KEPT) }
        }),
      clear: () => set((s) => ({ email: null, expiresAt: null, addresses: s.addresses.filter((a) => a.email !== s.email) })),
      forget: (email) =>
        set((s) => ({
          addresses: s.addresses.filter((a) => a.email !== email),
          ...(s.email === email ? { email: null, expiresAt: null } : {}),
        })),
      keep: (addresses) =>
        set((s) => {
          const known = new Set(s.addresses.map((a) => a.email))
          return { addresses: [...s.addresses, ...addresses.filter((a) => !known.has(a.email))].slice(0, MAX_KEPT) }
        }),
    }),
    {
      name: CURRENT_ADDRESS_KEY,
      storage: createJSONStorage(() => localStorage),
      partialize: (s) => ({ email: s.email, expiresAt: s.expiresAt, addresses: s.addresses }),
      merge: (persisted, current) => {
        const p = persisted as Partial<CurrentAddressState> | undefined
        const now = Date.now()
        const addresses = (Array.isArray(p?.addresses) ? p.addresses : []).filter(isKept).filter((a) => a.expiresAt > now)
        const live = Boolean(p?.email) && typeof p?.expiresAt === 'number' && p.expiresAt > now
        // Stored before the list existed: the current address starts it.
        if (live && !addresses.some((a) => a.email === p!.email)) addresses.unshift({ email: p!.email!, expiresAt: p!.expiresAt! })
        return { ...current, addresses, ...(live ? { email: p!.email!, expiresAt: p!.expiresAt! } : {}) }
      },
    },
  ),
)

/** Drops the addresses that have expired by `now` (the current one is left to the tool, which says it expired). */
export function dropExpiredAddresses(now: number): void {
  const { addresses } = useCurrentAddress.getState()
  if (addresses.some((a) => a.expiresAt <= now)) useCurrentAddress.setState({ addresses: addresses.filter((a) => a.expiresAt > now) })
}
