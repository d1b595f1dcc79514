import '../../../lib/i18n'
import { act, render, renderHook, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { MessageSummary } from '@tempbox/types'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { inboxMessage } from '../../../testing/mocks/email-data'
import { useNewMailToast } from './use-new-mail-toast'

/** The IntersectionObserver callbacks the hook set up, to tell it the inbox scrolled in or out of view. */
let observers: ((entries: { isIntersecting: boolean }[]) => void)[] = []
beforeEach(() => {
  observers = []
  vi.stubGlobal(
    'IntersectionObserver',
    class {
      constructor(callback: (entries: { isIntersecting: boolean }[]) => void) {
        observers.push(callback)
      }
      observe() {}
      disconnect() {}
    },
  )
})
afterEach(() => vi.unstubAllGlobals())

const scrollInbox = (isIntersecting: boolean) => observers.forEach((notifyOf) => notifyOf([{ isIntersecting }]))
const old = inboxMessage({ id: '1', sender: 'Old <old@example.com>', receivedAt: new Date(Date.now() - 3_600_000).toISOString() })
const fresh = (id: string, codes: string[] = []) =>
  inboxMessage({ id, sender: 'Acme Billing <billing@acme.example>', subject: 'Your code', receivedAt: new Date(Date.now() + 1_000).toISOString(), verification: { codes, codeDetails: [], links: [] } })

function setUp(initial: MessageSummary[] | undefined) {
  const notify = vi.fn()
  const onCopyCode = vi.fn()
  const list = document.createElement('div')
  const hook = renderHook(({ messages }) => useNewMailToast('box@tempbox.test', messages, list, notify, onCopyCode), { initialProps: { messages: initial } })
  return { notify, onCopyCode, rerender: (messages: MessageSummary[]) => hook.rerender({ messages }), unseen: () => hook.result.current.unseen }
}

describe('useNewMailToast', () => {
  it('says who new mail is from, with its code to copy, when the inbox is out of view', async () => {
    const { notify, onCopyCode, rerender } = setUp([old])
    scrollInbox(false)
    rerender([fresh('2', ['482913']), old])
    expect(notify).toHaveBeenCalledTimes(1)
    const toast = notify.mock.calls[0]![0]
    expect(toast).toMatchObject({ title: 'New mail from Acme Billing', description: 'Your code' })
    render(toast.action)
    await userEvent.setup().click(screen.getByRole('button', { name: 'Copy code 482913' }))
    expect(onCopyCode).toHaveBeenCalledWith('482913')
  })

  it('counts the mail that came while the list was out of view until the list is seen again', () => {
    const { rerender, unseen } = setUp([old])
    scrollInbox(false)
    rerender([fresh('2'), old])
    expect(unseen()).toBe(1)
    rerender([fresh('4'), fresh('3'), fresh('2'), old])
    expect(unseen()).toBe(3)
    act(() => scrollInbox(true))
    expect(unseen()).toBe(0)
  })

  it('says nothing while the inbox is in view: the new row shows it', () => {
    const { notify, rerender, unseen } = setUp([old])
    scrollInbox(true)
    rerender([fresh('2'), old])
    expect(notify).not.toHaveBeenCalled()
    expect(unseen()).toBe(0)
  })

  it('does not announce the mail that was there when the inbox loaded, nor offer a code a mail has not', () => {
    const { notify, rerender } = setUp(undefined)
    scrollInbox(false)
    rerender([])
    rerender([old])
    expect(notify).not.toHaveBeenCalled()
    rerender([fresh('3'), old])
    expect(notify).toHaveBeenCalledTimes(1)
    expect(notify.mock.calls[0]![0].action).toBeUndefined()
  })
})
