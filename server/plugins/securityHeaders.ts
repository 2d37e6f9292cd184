import helmet from '@fastify/helmet';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

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

/**
 * Security headers on every answer (@fastify/helmet): the CSP above, X-Frame-Options DENY,
 * nosniff, Referrer-Policy same-origin, and the rest of helmet's defaults. HSTS only when the
 * panel is reached over HTTPS: PUBLIC_URL is https, or the request came over TLS (as a trusted
 * proxy says with X-Forwarded-Proto when TRUST_PROXY is set). A plain-http panel never gets it,
 * nor upgrade-insecure-requests, which would send its own requests to an https:// that is not
 * there.
 */
export default fp(async function securityHeadersPlugin(app: FastifyInstance) {
  await app.register(helmet, {
    contentSecurityPolicy: { useDefaults: false, directives: CSP_DIRECTIVES },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'same-origin' },
    hsts: false,
  });
  const httpsPanel = app.config.publicUrl.startsWith('https://');
  const overHttps = (req: FastifyRequest) => httpsPanel || req.protocol === 'https';
  app.addHook('onRequest', async (req, reply) => {
    if (overHttps(req)) await reply.helmet({ hsts: HSTS });
  });
});
