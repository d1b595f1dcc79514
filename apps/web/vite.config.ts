import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'
import tailwindcss from '@tailwindcss/vite'
import { precompressAssets } from './precompress-assets.ts'

/**
 * The libraries every page runs before its first render, as one chunk: a broader group pulled libraries only lazy
 * chunks use into the first view, past the 150 KB budget (BENCHMARKS.md, Budget).
 */
const FIRST_VIEW_LIBRARIES = /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router|i18next|react-i18next|swr|use-sync-external-store|zustand|tailwind-merge|clsx|@radix-ui[\\/]react-slot|@radix-ui[\\/]react-compose-refs)[\\/]/

/**
 * The component kit (packages/ui, Radix, Lucide) as one lazy `ui` chunk, not ~30 files of a few hundred bytes; what of
 * it the first view runs (rolldown's `$initial` tag) as `initial-ui`, so the first view never waits for the whole kit.
 */
const UI_KIT = /[\\/](node_modules[\\/](lucide-react|@radix-ui|@floating-ui|class-variance-authority|react-remove-scroll[^\\/]*|aria-hidden|use-callback-ref|use-sidecar|get-nonce|tslib)|packages[\\/]ui[\\/]src)[\\/]/
const codeSplitting = {
  groups: [
    { name: 'vendor', test: FIRST_VIEW_LIBRARIES, priority: 3 },
    { name: 'initial-ui', test: UI_KIT, tags: ['$initial' as const], priority: 2 },
    { name: 'ui', test: UI_KIT, priority: 1 },
  ],
}

export default defineConfig({
  plugins: [react(), tailwindcss(), precompressAssets()],
  server: {
    port: 5173,
    proxy: { '/api': 'http://127.0.0.1:3000', '/s': 'http://127.0.0.1:3000' },
  },
  build: { target: 'es2022', sourcemap: false, rolldownOptions: { output: { codeSplitting } } },
})
