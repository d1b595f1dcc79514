import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'
import tailwindcss from '@tailwindcss/vite'
import { precompressAssets } from './precompress-assets'

/**
 * Modules that two or more chunks import go into one chunk of libraries and one of our own shared code, rather than
 * dozens of chunks of a few hundred bytes: /about took 53 requests, now 15. Each request costs the browser and the
 * server more than its bytes do (Chromium, paired A/B: 10-15 % less CPU a fresh page load).
 */
const codeSplitting = {
  groups: [
    { name: 'vendor', test: /[\\/]node_modules[\\/]/, minShareCount: 2 },
    { name: 'shared', test: /[\\/](apps[\\/]web|packages[\\/]ui)[\\/]src[\\/]/, minShareCount: 2 },
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
