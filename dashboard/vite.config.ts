import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// Served by the API server under /dashboard (server/src/dashboard/static-assets.ts).
export default defineConfig({
  base: '/dashboard/',
  plugins: [react()],
  build: { outDir: 'dist', assetsDir: 'assets', emptyOutDir: true, modulePreload: { polyfill: false } },
});
