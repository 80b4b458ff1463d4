import { reactRouter } from '@react-router/dev/vite'
import tailwindcss from '@tailwindcss/vite'
import { defineConfig } from 'vite'

export default defineConfig({
  plugins: [tailwindcss(), reactRouter()],
  // The manifest is kept so `npm run budget:js` can size what a page modulepreloads.
  build: { target: 'es2022', manifest: true },
})
