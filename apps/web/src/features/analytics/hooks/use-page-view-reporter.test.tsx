import { act, render, waitFor } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { server } from '../../../testing/mocks/server'
import { PageViewReporter } from '../components/page-view-reporter'

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterEach(() => server.resetHandlers())
afterAll(() => server.close())

describe('usePageViewReporter', () => {
  it('reports each route change once, path only', async () => {
    const paths: unknown[] = []
    server.use(
      http.post('/api/analytics/pageview', async ({ request }) => {
        paths.push(await request.json())
        return new HttpResponse(null, { status: 204 })
      }),
    )
    const router = createMemoryRouter([{ path: '*', element: <PageViewReporter /> }], { initialEntries: ['/'] })
    render(<RouterProvider router={router} />)
    await waitFor(() => expect(paths).toHaveLength(1))
    await act(() => router.navigate('/contact?from=home#form'))
    await waitFor(() => expect(paths).toEqual([{ path: '/' }, { path: '/contact' }]))
  })
})
