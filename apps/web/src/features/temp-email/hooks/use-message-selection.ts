import { useCallback, useEffect, useState } from 'react'

/** Which message of the inbox is open: one at a time, none once another inbox is switched in. */
export function useMessageSelection(email: string | null) {
  const [expandedId, setExpandedId] = useState<string | null>(null)

  // Another inbox was switched in (e.g. from the saved addresses of an account): nothing of the old one stays open.
  useEffect(() => setExpandedId(null), [email])

  const deselect = useCallback(() => setExpandedId(null), [])
  const toggle = useCallback((id: string) => setExpandedId((current) => (current === id ? null : id)), [])

  // Closing (Escape, Close) puts focus back on the message's row rather than losing it with the panel.
  const close = useCallback((id: string) => {
    setExpandedId(null)
    requestAnimationFrame(() => document.getElementById(`message-row-${id}`)?.focus())
  }, [])

  return { expandedId, select: setExpandedId, deselect, toggle, close }
}

export type MessageSelection = ReturnType<typeof useMessageSelection>
