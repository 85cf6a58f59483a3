import { defineConfig } from 'vite';

/**
 * The viewer: a static Preact app built into dist/web, which the archive serves at `/`
 * (`npm run build` runs `vite build web` after the server's build, which empties dist/ first).
 * Paths are relative to this folder, Vite's root.
 */
export default defineConfig({
  root: '.',
  // Assets are asked for from the page's own origin, under /assets/ (hashed names, cached for long).
  base: '/',
  // Preact's automatic JSX runtime, through Vite's own transformer: no plugin needed.
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  // `npx vite web` for work on the viewer: the API calls go to an archive started beside it (`npm start`).
  server: {
    proxy: Object.fromEntries(['/games', '/players', '/formats', '/uploads', '/positions', '/patterns', '/docs'].map((path) => [path, 'http://localhost:3000'])),
  },
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    assetsDir: 'assets',
    target: 'es2022',
  },
});
