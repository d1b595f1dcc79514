import '../../../lib/i18n'
import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { http, HttpResponse } from 'msw'
import { Toaster } from '@tempbox/ui'
import type { IpInfo } from '@tempbox/types'
import { SWRConfig } from 'swr'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { swrConfig } from '../../../lib/swr'
import { server } from '../../../testing/mocks/server'
import { IpFinderTool } from './ip-finder-tool'

const none = { countryName: null, countryCode: null, region: null, city: null, timeZone: null, asn: null, organisation: null }
const google: IpInfo = { ip: '8.8.8.8', version: 4, isPrivate: false, countryName: 'United States', countryCode: 'US', region: 'California', city: 'Mountain View', timeZone: null, asn: 15169, organisation: 'Google LLC' }

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterEach(() => server.resetHandlers())
afterAll(() => server.close())

function renderTool() {
  server.use(
    http.get('*/api/ip', () => HttpResponse.json({ ip: '192.168.1.5', version: 4, isPrivate: true, ...none })),
    http.get('*/api/ip/:ip', ({ params }) =>
      params.ip === '8.8.8.8'
        ? HttpResponse.json(google)
        : HttpResponse.json({ error: `"${String(params.ip)}" is not an IP address.`, code: 'invalid_ip' }, { status: 400 }),
    ),
  )
  const user = userEvent.setup()
  render(
    <SWRConfig value={{ ...swrConfig, provider: () => new Map() }}>
      <IpFinderTool />
      <Toaster />
    </SWRConfig>,
  )
  return user
}

describe('IpFinderTool', () => {
  it("shows the visitor's own address, saying clearly when it is a private network", async () => {
    renderTool()
    expect(await screen.findByTestId('own-ip-address')).toHaveTextContent('192.168.1.5')
    expect(screen.getByTestId('ip-private')).toHaveTextContent('private network')
    expect(screen.getByRole('link', { name: 'DB-IP' })).toHaveAttribute('href', 'https://db-ip.com')
  })

  it('looks up a typed address with flag, place and network, and shows refusals', async () => {
    const user = renderTool()
    await user.type(screen.getByLabelText('Look up an IP address'), '8.8.8.8{Enter}')
    const result = await screen.findByTestId('ip-lookup-result')
    expect(result).toHaveTextContent('🇺🇸')
    expect(result).toHaveTextContent('Mountain View, California, United States')
    expect(result).toHaveTextContent('Google LLC (AS15169)')

    await user.clear(screen.getByLabelText('Look up an IP address'))
    await user.type(screen.getByLabelText('Look up an IP address'), 'nope{Enter}')
    expect(await screen.findByTestId('ip-lookup-error')).toHaveTextContent('"nope" is not an IP address.')
  })
})
