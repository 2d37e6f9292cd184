import path from 'node:path';
import react from '@vitejs/plugin-react';
import { type Plugin, defineConfig } from 'vite';

/**
 * Packages every page needs, /login first: one chunk instead of a dozen, so gzip compresses
 * them as one (about 13 KB less to download than apart). Only whole packages the first page
 * uses entirely: a package whose parts later pages use (MUI's components, ra-core) stays split.
 */
const FIRST_PAGE_PACKAGES =
  /node_modules\/(react|react-dom|scheduler|react-router|react-router-dom|@emotion\/[^/]+|stylis|@mui\/(styled-engine|private-theming)|hoist-non-react-statics|react-is|eventemitter3|node-polyglot|clsx|react-transition-group|hasown|warning)\//;

/**
 * ra-core wraps an app that has no router of its own in a hash data router (createHashRouter,
 * RouterProvider: react-router's whole data-router half, ~12 KB gzipped). The panel always
 * renders inside its BrowserRouter (src/App.tsx), so that branch never runs: it is cut from the
 * build, and the build fails if ra-core's module no longer reads as expected.
 */
function withoutHashRouter(): Plugin {
  const file = /ra-core\/dist\/routing\/adapters\/reactRouterProvider\.js$/;
  const body = /const InternalRouter = \([^]*?\n\};\n/;
  return {
    name: 'stackdeck-without-hash-router',
    apply: 'build',
    transform(code, id) {
      if (!file.test(id)) return null;
      if (!body.test(code))
        throw new Error(`${id}: ra-core's InternalRouter changed; review withoutHashRouter`);
      return code
        .replace(
          body,
          "const InternalRouter = () => {\n  throw new Error('Stackdeck renders inside its own BrowserRouter');\n};\n",
        )
        .replace('createHashRouter, RouterProvider as ReactRouterProvider, ', '');
    },
  };
}

/**
 * MUI's styling core and the few components on every page (the public pages' inputs and
 * buttons, the shell's too): one chunk, not thirty small ones.
 */
const MUI_CORE =
  /node_modules\/@mui\/(system\/esm\/(?!Grid|Stack|Container)|utils|material\/esm\/(styles|utils|internal|colors|zero-styled|DefaultPropsProvider|ButtonBase|Button|IconButton|Typography|SvgIcon|Box|Link|InputBase|OutlinedInput|InputLabel|FormLabel|FormControl|FormHelperText|InputAdornment|CssBaseline|GlobalStyles|useMediaQuery|transitions)\/)/;

// The SPA: built into dist/web and served by the panel; `npm run dev` proxies the API to it.
export default defineConfig({
  plugins: [react(), withoutHashRouter()],
  resolve: {
    alias: [
      {
        find: /^object\.entries$/,
        replacement: path.resolve(import.meta.dirname, 'src/shims/objectEntries.cjs'),
      },
    ],
  },
  build: {
    outDir: 'dist/web',
    emptyOutDir: true,
    sourcemap: true,
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: 'first-page', test: FIRST_PAGE_PACKAGES },
            { name: 'mui-core', test: MUI_CORE },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/api': 'http://localhost:8080',
      '/socket.io': { target: 'ws://localhost:8080', ws: true },
    },
  },
});
