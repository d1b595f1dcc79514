import { createBrowserRouter, RouterProvider } from 'react-router'
import { HomeRoute } from './routes/home'

const router = createBrowserRouter([
  { path: '/', element: <HomeRoute /> },
])

export function AppRouter() {
  return <RouterProvider router={router} />
}
