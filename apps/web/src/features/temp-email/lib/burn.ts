import type { BurnMode, SetBurnBody } from '@tempbox/types'
import { BURN_MINUTE_CHOICES } from '@tempbox/types/constants'
import { create } from 'zustand'
import { createJSONStorage, persist } from 'zustand/middleware'
import { useCurrentAddress } from '../../../stores/current-address'

/** What the reader picks: the usual lifetime, burn on first read, or one of the offered timers (minutes). */
export type BurnChoice = 'none' | 'read' | `${(typeof BURN_MINUTE_CHOICES)[number]}`

export const BURN_CHOICES: readonly BurnChoice[] = ['none', 'read', ...BURN_MINUTE_CHOICES.map((m) => `${m}` as BurnChoice)]

/** The request fields of a choice (the same on generate and on PUT …/burn). */
export function burnFields(choice: BurnChoice): SetBurnBody {
  if (choice === 'none') return {}
  if (choice === 'read') return { burnAfterRead: true }
  return { burnAfterMinutes: Number(choice) }
}

interface BurnModesState {
  /** How each of this browser's addresses burns, when it does (the inbox listing does not say). */
  modes: Record<string, Exclude<BurnMode, null>>
  setMode: (email: string, mode: BurnMode | undefined) => void
}

/** Persisted beside the current address, so a reload still says what will happen. Bounded by the addresses kept. */
export const useBurnModes = create<BurnModesState>()(
  persist(
    (set) => ({
      modes: {},
      setMode: (email, mode) =>
        set((s) => {
          const { [email]: _dropped, ...rest } = s.modes
          const kept = Object.fromEntries(Object.entries(rest).slice(-19))
          return { modes: mode ? { ...kept, [email]: mode } : kept }
        }),
    }),
    { name: 'tempbox-burn-modes', storage: createJSONStorage(() => localStorage) },
  ),
)

// An address this browser forgets (released, burned, expired, or its account signed out) leaves no trace here either.
useCurrentAddress.subscribe((state, previous) => {
  if (state.addresses === previous.addresses) return
  const live = new Set(state.addresses.map((a) => a.email))
  const { modes } = useBurnModes.getState()
  if (Object.keys(modes).every((email) => live.has(email))) return
  useBurnModes.setState({ modes: Object.fromEntries(Object.entries(modes).filter(([email]) => live.has(email))) })
})
