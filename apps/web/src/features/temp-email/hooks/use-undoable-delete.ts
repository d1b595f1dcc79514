import { useCallback, useEffect, useRef, useState } from 'react'
import { deleteMessage } from '../message-viewer/api/message'

/** How long a deleted message can be brought back before the server deletes it (the toast's own display time). */
export const UNDO_DELETE_MS = 5000

interface Pending {
  address: string
  timer: ReturnType<typeof setTimeout>
}

/**
 * Deleting with Undo: a message leaves the list at once and is deleted on the server only after UNDO_DELETE_MS, unless
 * undone. A deletion still waiting when the page goes away (or the tool unmounts) is sent right then, with keepalive,
 * so a reader who deleted and left does not find the message back.
 */
export function useUndoableDelete(handlers: { onDeleted: (address: string, id: string) => void; onFailed: () => void }) {
  const [hidden, setHidden] = useState<ReadonlySet<string>>(() => new Set())
  const pending = useRef(new Map<string, Pending>())
  const handlersRef = useRef(handlers)
  handlersRef.current = handlers

  const show = useCallback((id: string) => {
    setHidden((current) => {
      const next = new Set(current)
      next.delete(id)
      return next
    })
  }, [])

  const commit = useCallback(
    async (id: string, init?: RequestInit) => {
      const entry = pending.current.get(id)
      if (!entry) return
      pending.current.delete(id)
      clearTimeout(entry.timer)
      try {
        await deleteMessage(entry.address, id, init)
        handlersRef.current.onDeleted(entry.address, id)
      } catch {
        show(id)
        handlersRef.current.onFailed()
      }
    },
    [show],
  )

  useEffect(() => {
    const flush = () => {
      for (const id of [...pending.current.keys()]) void commit(id, { keepalive: true })
    }
    window.addEventListener('pagehide', flush)
    return () => {
      window.removeEventListener('pagehide', flush)
      flush()
    }
  }, [commit])

  const remove = useCallback(
    (address: string, id: string) => {
      setHidden((current) => new Set(current).add(id))
      pending.current.set(id, { address, timer: setTimeout(() => void commit(id), UNDO_DELETE_MS) })
    },
    [commit],
  )

  const undo = useCallback(
    (id: string) => {
      const entry = pending.current.get(id)
      if (!entry) return
      clearTimeout(entry.timer)
      pending.current.delete(id)
      show(id)
    },
    [show],
  )

  return { hidden, remove, undo }
}
