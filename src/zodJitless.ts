import { z } from 'zod';

/**
 * The panel's CSP allows no eval (server/plugins/securityHeaders.ts). Zod would probe for
 * `new Function` on its first object parse, and Chromium reports the refused probe as a CSP
 * violation even though zod falls back quietly: jitless skips the probe and the JIT. Imported
 * first by main.tsx, before any schema is parsed.
 */
z.config({ jitless: true });
