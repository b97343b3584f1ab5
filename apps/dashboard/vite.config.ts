// The operator dashboard: built into dist/apps/dashboard, served by the
// gateway at /dashboard (one origin with the API). Component tests run here
// too (Vitest, jsdom).
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

const root = fileURLToPath(new URL('../..', import.meta.url));
const GATEWAY = process.env.GATEWAY_URL ?? 'http://127.0.0.1:8080';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/dashboard/',
  plugins: [react()],
  build: {
    outDir: `${root}dist/apps/dashboard`,
    emptyOutDir: true,
    // Hashed file names only: the gateway may cache them for long.
    assetsDir: 'assets',
    // Libraries in chunks of their own: they change less often than the pages, so browsers keep them cached across releases.
    rollupOptions: {
      output: {
        manualChunks: (id) => {
          // Styles stay with the entry (one stylesheet, loaded at once).
          if (!id.includes('node_modules') || id.endsWith('.css')) return undefined;
          // The chart library and what only it uses (Recharts 3 keeps its state in Redux).
          if (/node_modules\/(recharts|d3-|victory-vendor|@mantine\/charts|@reduxjs|react-redux|redux|immer|reselect|decimal\.js-light|es-toolkit|eventemitter3|internmap)/.test(id)) return 'charts';
          if (/node_modules\/@mantine\//.test(id)) return 'mantine';
          if (/node_modules\/(react|react-dom|scheduler|react-router)\//.test(id)) return 'react';
          return 'vendor';
        },
      },
    },
    chunkSizeWarningLimit: 700,
  },
  server: {
    // `npx vite` here against a running `npm start`: the API seen as this origin, as in production
    // (the gateway refuses a session's changes from another Origin).
    proxy: Object.fromEntries(
      ['/api', '/console'].map((path) => [
        path,
        { target: GATEWAY, configure: (proxy) => proxy.on('proxyReq', (request) => request.setHeader('origin', GATEWAY)) },
      ]),
    ),
  },
  test: {
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.spec.{ts,tsx}'],
    // Room for several 15 s waits (setup.ts) on a loaded machine.
    testTimeout: 45_000,
    reporters: ['default', `${root}tools/vitest-summary-reporter.mjs`],
  },
});
