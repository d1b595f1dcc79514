import type { FullMessage, MessageSummary } from '@tempbox/types'
import { useCallback, useRef, useState } from 'react'
import { fetchMessage } from '../api/burn'
import { markMessageRead } from '../api/read-state'
import { useBurnModes } from '../lib/burn'

/**
 * Burn after read, as the reader sees it. Opening a message of a burn-on-read address is what deletes it, so the
 * message is fetched first and kept in this page: the reader still gets the code they came for, from `burned`.
 */
export function useBurn(email: string | null, markRead: (message: MessageSummary) => void, forget: (email: string) => void) {
  const mode = useBurnModes((s) => (email ? s.modes[email] : undefined)) ?? null
  const setMode = useBurnModes((s) => s.setMode)
  const [burned, setBurned] = useState<{ email: string; message: FullMessage | null } | null>(null)
  const burning = useRef(false)

  const open = useCallback(
    (message: MessageSummary) => {
      if (!email || mode !== 'read') {
        markRead(message)
        return
      }
      burning.current = true
      void (async () => {
        try {
          const full = await fetchMessage(email, message.id).catch(() => null)
          const state = await markMessageRead(email, message.id).catch(() => null)
          if (!state?.burned) return
          setMode(email, undefined)
          forget(email)
          setBurned({ email, message: full })
        } finally {
          burning.current = false
        }
      })()
    },
    [email, mode, markRead, setMode, forget],
  )

  const isBurning = useCallback(() => burning.current, [])
  return { mode, setMode, burned, clearBurned: useCallback(() => setBurned(null), []), open, isBurning }
}
