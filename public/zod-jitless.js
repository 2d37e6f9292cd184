// The panel's CSP allows no eval (server/plugins/securityHeaders.ts). Zod probes for
// `new Function` when it builds its first object schema, and Chromium reports the refused probe
// as a CSP violation even though zod falls back quietly; jitless skips the probe and the JIT.
// Schemas are built at module load, in whichever chunk the bundler puts them (and Vite merges
// the page's module scripts into one entry), so this is a classic script that runs before any
// module: it sets zod's global config before zod loads (zod keeps an existing one).
globalThis.__zod_globalConfig = Object.assign({}, globalThis.__zod_globalConfig, { jitless: true });
