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

/**
 * The payment pages (the payment methods page, billing's `/payment{id}`) load Stripe.js, and
 * only they: their documents get Stripe's origins as Stripe's guide lists them
 * (docs.stripe.com/security/guide#content-security-policy), the rest of the panel never does.
 * STRIPE_JS_URL (a stand-in of Stripe.js on an air-gapped machine or in tests) adds its origin,
 * which the stand-in's script calls. Pages reached inside the app keep their document's policy:
 * the card form loads the page again once when Stripe.js was refused (features/payment-methods).
 */
export const PAYMENT_PAGE = /^\/(?:recharge-payment-method|payment)(?:\d+|\/|\?|$)/;

export function paymentPageDirectives(stripeJsUrl: string | undefined): Record<string, string[]> {
  let standIn: string[] = [];
  try {
    if (stripeJsUrl) standIn = [new URL(stripeJsUrl).origin];
  } catch {
    // Not a URL: Stripe's own origins only (the script then fails to load, in words).
  }
  const stripeJs = ['https://js.stripe.com', 'https://*.js.stripe.com', ...standIn];
  return {
    ...CSP_DIRECTIVES,
    'script-src': ["'self'", ...stripeJs],
    'frame-src': ["'self'", ...stripeJs, 'https://hooks.stripe.com'],
    'connect-src': ["'self'", 'https://api.stripe.com', ...standIn],
  };
}

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
  const payment = {
    ...OPTIONS,
    contentSecurityPolicy: {
      useDefaults: false,
      directives: paymentPageDirectives(process.env.STRIPE_JS_URL?.trim()),
    },
  };
  const paymentPlain = helmet(payment);
  const paymentWithHsts = helmet({ ...payment, hsts: HSTS });
  const httpsPanel = app.config.publicUrl.startsWith('https://');
  const overHttps = (req: FastifyRequest) => httpsPanel || req.protocol === 'https';
  app.addHook('onRequest', (req, reply, done) => {
    const https = overHttps(req);
    const headers = PAYMENT_PAGE.test(req.url)
      ? https
        ? paymentWithHsts
        : paymentPlain
      : https
        ? withHsts
        : plain;
    headers(req.raw, reply.raw, done);
  });
});
