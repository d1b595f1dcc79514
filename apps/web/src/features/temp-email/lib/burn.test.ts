import { beforeEach, describe, expect, it } from 'vitest'
import { useCurrentAddress } from '../../../stores/current-address'
import { useBurnModes } from './burn'

const HOUR = 3_600_000

beforeEach(() => {
  useCurrentAddress.setState({ email: null, expiresAt: null, addresses: [] })
  useBurnModes.setState({ modes: {} })
})

describe('burn modes kept in this browser', () => {
  it('forgets the mode of an address this browser forgets, in memory and in localStorage, and keeps the others', () => {
    const store = useCurrentAddress.getState()
    store.setAddress('kept@tempbox.test', Date.now() + HOUR)
    useBurnModes.getState().setMode('kept@tempbox.test', 'timer')
    store.setAddress('account@tempbox.test', Date.now() + HOUR)
    useBurnModes.getState().setMode('account@tempbox.test', 'read')

    // What signing out does with the account's addresses (and Release with one).
    useCurrentAddress.getState().forget('account@tempbox.test')
    expect(useBurnModes.getState().modes).toEqual({ 'kept@tempbox.test': 'timer' })
    expect(localStorage.getItem('tempbox-burn-modes')).not.toContain('account@tempbox.test')

    // An expired current address is cleared from the list, its mode with it.
    useCurrentAddress.getState().setAddress('kept@tempbox.test', Date.now() + HOUR)
    useCurrentAddress.getState().clear()
    expect(useBurnModes.getState().modes).toEqual({})
  })
})
