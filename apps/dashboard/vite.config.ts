/// <reference types="vitest/config" />
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The dashboard reads the shared contracts from source: they are types, constants and pure functions
// with no imports, so there is nothing to build first and no server code can come along.
const contracts = fileURLToPath(new URL('../../libs/contracts/src/index.ts', import.meta.url));

// Same origin in production (the lab's gateway serves dist/ under / and the API under /api);
// in development the dev and preview servers forward /api to the order service.
const apiProxy = {
  // The lab's gateway as `npm run demo` starts it; a single order service would be OVERSELL_API=http://127.0.0.1:3000.
  '/api': { target: process.env.OVERSELL_API ?? 'http://127.0.0.1:8080', changeOrigin: true },
};

export default defineConfig({
  // Relative asset URLs, so the built page works wherever it is mounted.
  base: './',
  plugins: [react()],
  resolve: { alias: { '@oversell/contracts': contracts } },
  server: { proxy: apiProxy },
  preview: { proxy: apiProxy },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Libraries change less often than the app: separate chunks stay cached across dashboard releases.
    rollupOptions: {
      output: {
        manualChunks: { charts: ['recharts'], react: ['react', 'react-dom', '@tanstack/react-query'] },
      },
    },
  },
  test: {
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    restoreMocks: true,
  },
});
