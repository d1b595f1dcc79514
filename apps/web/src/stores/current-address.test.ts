import { beforeEach, describe, expect, it } from 'vitest'
import { CURRENT_ADDRESS_KEY, useCurrentAddress } from './current-address'

beforeEach(() => {
  useCurrentAddress.setState({ email: null, expiresAt: null, addresses: [] })
})

describe('useCurrentAddress', () => {
  it('stores the address with its expiry in localStorage', () => {
    const expiresAt = '2099-01-01T00:00:00.000Z'
    useCurrentAddress.getState().setAddress('a@tempbox.test', expiresAt)
    expect(useCurrentAddress.getState()).toMatchObject({ email: 'a@tempbox.test', expiresAt: Date.parse(expiresAt) })
    const at = Date.parse(expiresAt)
    expect(JSON.parse(localStorage.getItem(CURRENT_ADDRESS_KEY)!).state).toEqual({ email: 'a@tempbox.test', expiresAt: at, addresses: [{ email: 'a@tempbox.test', expiresAt: at }] })
  })

  it('restores a stored address that has not expired', async () => {
    const expiresAt = Date.now() + 60_000
    localStorage.setItem(CURRENT_ADDRESS_KEY, JSON.stringify({ state: { email: 'b@tempbox.test', expiresAt }, version: 0 }))
    await useCurrentAddress.persist.rehydrate()
    expect(useCurrentAddress.getState()).toMatchObject({ email: 'b@tempbox.test', expiresAt })
  })

  it('drops a stored address that has expired', async () => {
    localStorage.setItem(CURRENT_ADDRESS_KEY, JSON.stringify({ state: { email: 'c@tempbox.test', expiresAt: Date.now() - 1 }, version: 0 }))
    await useCurrentAddress.persist.rehydrate()
    expect(useCurrentAddress.getState().email).toBeNull()
  })

  it('clear() forgets it', () => {
    useCurrentAddress.getState().setAddress('d@tempbox.test', Date.now() + 1000)
    useCurrentAddress.getState().clear()
    expect(useCurrentAddress.getState()).toMatchObject({ email: null, expiresAt: null })
    expect(JSON.parse(localStorage.getItem(CURRENT_ADDRESS_KEY)!).state.email).toBeNull()
  })

  it('keeps every address of this browser, newest first, and switching does not lose any', () => {
    const { setAddress } = useCurrentAddress.getState()
    setAddress('one@tempbox.test', Date.now() + 60_000)
    setAddress('two@tempbox.test', Date.now() + 90_000)
    setAddress('one@tempbox.test', Date.now() + 60_000)
    expect(useCurrentAddress.getState().email).toBe('one@tempbox.test')
    expect(useCurrentAddress.getState().addresses.map((a) => a.email)).toEqual(['one@tempbox.test', 'two@tempbox.test'])
  })

  it('forget() takes a released address off the list, and out of the inbox when it was the current one', () => {
    const { setAddress, forget } = useCurrentAddress.getState()
    setAddress('one@tempbox.test', Date.now() + 60_000)
    setAddress('two@tempbox.test', Date.now() + 60_000)
    forget('one@tempbox.test')
    expect(useCurrentAddress.getState()).toMatchObject({ email: 'two@tempbox.test', addresses: [{ email: 'two@tempbox.test' }] })
    forget('two@tempbox.test')
    expect(useCurrentAddress.getState()).toMatchObject({ email: null, addresses: [] })
  })

  it('restores the list without the addresses that expired meanwhile', async () => {
    const live = { email: 'live@tempbox.test', expiresAt: Date.now() + 60_000 }
    const state = { email: live.email, expiresAt: live.expiresAt, addresses: [live, { email: 'old@tempbox.test', expiresAt: Date.now() - 1 }] }
    localStorage.setItem(CURRENT_ADDRESS_KEY, JSON.stringify({ state, version: 0 }))
    await useCurrentAddress.persist.rehydrate()
    expect(useCurrentAddress.getState().addresses).toEqual([live])
  })
})
