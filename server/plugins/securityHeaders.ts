import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

type HeadersMiddleware = (
  req: IncomingMessage,
  res: ServerResponse,
  next: (error?: Error) => void,
) => void;

/**
 * helmet itself, as @fastify/helmet (the panel's dependency) loads it. @fastify/helmet builds a
 * new helmet middleware for every request, parsing the CSP each time: 13% of an API read's CPU
 * (measured, `npm run bench -- api`). The middlewares are built once here instead.
 */
const helmet = createRequire(createRequire(import.meta.url).resolve('@fastify/helmet'))(
  'helmet',
) as (options: object) => HeadersMiddleware;

/**
 * The panel's Content-Security-Policy. Scripts come only from the panel's own files (Vite's
 * bundle, swagger-ui's): no inline script, no eval, no CDN. Styles allow 'unsafe-inline' because
 * MUI's emotion writes <style> elements at run time (and swagger-ui sets style attributes).
 * Images: the panel's files, data: URLs (the TOTP QR code, swagger-ui's icons) and blob: (a photo
 * chosen for upload, shown before it is sent). Monaco, once the editor lands, runs its workers
 * from the panel's files or blob: URLs. The live socket talks to the panel's own origin, which
 * 'self' covers for ws:/wss: too (CSP Level 3). Nothing may frame a page of the panel.
 */
export const CSP_DIRECTIVES = {
  'default-src': ["'self'"],
  'base-uri': ["'self'"],
  'connect-src': ["'self'"],
  'font-src': ["'self'", 'data:'],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
  'img-src': ["'self'", 'data:', 'blob:'],
  'object-src': ["'none'"],
  'script-src': ["'self'"],
  'script-src-attr': ["'none'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'worker-src': ["'self'", 'blob:'],
};

const HSTS = { maxAge: 365 * 24 * 3600, includeSubDomains: true };

const OPTIONS = {
  contentSecurityPolicy: { useDefaults: false, directives: CSP_DIRECTIVES },
  frameguard: { action: 'deny' },
  referrerPolicy: { policy: 'same-origin' },
  hsts: false,
};

/**
 * Security headers on every answer (helmet): the CSP above, X-Frame-Options DENY,
 * nosniff, Referrer-Policy same-origin, and the rest of helmet's defaults. HSTS only when the
 * panel is reached over HTTPS: PUBLIC_URL is https, or the request came over TLS (as a trusted
 * proxy says with X-Forwarded-Proto when TRUST_PROXY is set). A plain-http panel never gets it,
 * nor upgrade-insecure-requests, which would send its own requests to an https:// that is not
 * there.
 */
export default fp(async function securityHeadersPlugin(app: FastifyInstance) {
  const plain = helmet(OPTIONS);
  const withHsts = helmet({ ...OPTIONS, hsts: HSTS });
  const httpsPanel = app.config.publicUrl.startsWith('https://');
  const overHttps = (req: FastifyRequest) => httpsPanel || req.protocol === 'https';
  app.addHook('onRequest', (req, reply, done) => {
    (overHttps(req) ? withHsts : plain)(req.raw, reply.raw, done);
  });
});
