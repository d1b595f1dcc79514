import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'
import tailwindcss from '@tailwindcss/vite'
import { precompressAssets } from './precompress-assets.ts'

/**
 * The libraries every page runs before its first render, as one chunk rather than eight: the first view loads 7 files,
 * not 14, and no more bytes (a broader group pulled libraries only lazy chunks use into the first view, past the
 * 150 KB budget: BENCHMARKS.md, Budget). Other libraries stay with the lazy chunks that use them.
 */
const FIRST_VIEW_LIBRARIES = /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router|i18next|react-i18next|swr|use-sync-external-store|zustand|tailwind-merge|clsx|@radix-ui[\\/]react-slot|@radix-ui[\\/]react-compose-refs)[\\/]/
const codeSplitting = { groups: [{ name: 'vendor', test: FIRST_VIEW_LIBRARIES }] }

export default defineConfig({
  plugins: [react(), tailwindcss(), precompressAssets()],
  server: {
    port: 5173,
    proxy: { '/api': 'http://127.0.0.1:3000', '/s': 'http://127.0.0.1:3000' },
  },
  build: { target: 'es2022', sourcemap: false, rolldownOptions: { output: { codeSplitting } } },
})
