import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import './lib/i18n'
import './index.css'
import { AppProvider } from './app/provider'
import { AppRouter } from './app/router'
import { routeInjectedStylesThroughCssom } from './lib/injected-styles'

routeInjectedStylesThroughCssom()

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppProvider>
      <AppRouter />
    </AppProvider>
  </StrictMode>,
)
