import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The app is served by the service itself at /app (src/http/routes/web-app): everything is
// bundled, nothing comes from another origin. `npm run build:web` writes dist/web.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/app/',
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: true,
    // Inlined assets would become data: URLs the content security policy need not allow.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    sourcemap: false,
    reportCompressedSize: false,
  },
  server: {
    // `npx vite web` during development: the API runs on npm start's port.
    proxy: { '/v1': 'http://127.0.0.1:8080', '/v2': 'http://127.0.0.1:8080' },
  },
});
