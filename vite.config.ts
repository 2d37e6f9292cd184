import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The SPA: built into dist/web and served by the panel; `npm run dev` proxies the API to it.
export default defineConfig({
  plugins: [react()],
  build: { outDir: 'dist/web', emptyOutDir: true, sourcemap: true, chunkSizeWarningLimit: 1500 },
  server: {
    port: 5173,
    proxy: {
      '/api': 'http://localhost:8080',
      '/socket.io': { target: 'ws://localhost:8080', ws: true },
    },
  },
});
