import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [react()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  build: { sourcemap: true, manifest: true, target: 'es2022', chunkSizeWarningLimit: 600 },
  // `npm run dev` says where its API listens; by hand, the API of `npm start`.
  server: {
    proxy: {
      '/api': process.env.PORTAL_API_URL ?? 'http://localhost:8080',
      '/config.json': process.env.PORTAL_API_URL ?? 'http://localhost:8080',
    },
  },
  test: {
    environment: 'jsdom',
    globals: true,
    setupFiles: ['./src/testing/setup.ts'],
    css: false,
    restoreMocks: true,
  },
});
