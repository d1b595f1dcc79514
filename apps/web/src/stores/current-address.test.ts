import { beforeEach, describe, expect, it } from 'vitest'
import { CURRENT_ADDRESS_KEY, useCurrentAddress } from './current-address'

beforeEach(() => {
  useCurrentAddress.setState({ email: null, expiresAt: null })
})

describe('useCurrentAddress', () => {
  it('stores the address with its expiry in localStorage', () => {
    const expiresAt = '2099-01-01T00:00:00.000Z'
    useCurrentAddress.getState().setAddress('a@tempbox.test', expiresAt)
    expect(useCurrentAddress.getState()).toMatchObject({ email: 'a@tempbox.test', expiresAt: Date.parse(expiresAt) })
    expect(JSON.parse(localStorage.getItem(CURRENT_ADDRESS_KEY)!).state).toEqual({ email: 'a@tempbox.test', expiresAt: Date.parse(expiresAt) })
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
})
