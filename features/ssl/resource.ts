/**
 * SSL certificates (spec "SSL and hostname"): one certificate per web app, uploaded (custom)
 * or issued by an ACME CA (Let's Encrypt, through certbot on the server). The panel keeps the
 * row; the agent writes the certificate and key to `/etc/stackdeck/ssl/app-<name>/` and serves
 * the app on 443 too (its vhost, features/webapps/renderNginx.ts), as one nginx transaction.
 */
import { z } from 'zod';
import { managedState } from '../../resources/managedState';
import { defineResource } from '../../resources/define';
import { op } from '../../resources/agent/opDef';
import { appName, appSpec, domainName } from '../webapps/api';

export const CERT_TYPES = ['custom', 'letsencrypt'] as const;

export const sslCertSchema = z.object({
  id: z.number().int(),
  webapp_id: z.number().int(),
  /** `custom` (uploaded) or `letsencrypt` (issued on the server by certbot). */
  type: z.enum(CERT_TYPES),
  /** The names the certificate covers (its subjectAltName, or its CN without one). */
  names: z.array(z.string()),
  issuer: z.string().nullable(),
  not_before: z.string().nullable(),
  not_after: z.string().nullable(),
  /** Plain HTTP answers with a redirect to HTTPS (the ACME challenge excepted). */
  force_https: z.boolean(),
  /** The ACME account's address (Let's Encrypt), or null. */
  email: z.string().nullable(),
  /** An uploaded certificate issued by itself: served, but browsers warn about it. */
  self_signed: z.boolean(),
  ...managedState,
});
export type SslCert = z.infer<typeof sslCertSchema>;

/** PEM text as pasted: size-bounded; the panel parses it (node:crypto) before anything else. */
const pem = (max: number) =>
  z.string().trim().min(1, 'Paste the PEM text').max(max, `At most ${max} characters`);

/** `POST sslcerts`: an uploaded certificate for one of the server's apps. */
export const customCertInput = z.object({
  webapp_id: z.coerce.number().int().positive(),
  /** The certificate (PEM); intermediates may follow it here or go in `chain`. */
  certificate: pem(20_000),
  /** Its private key (PEM, unencrypted). Never answered, never logged. */
  private_key: pem(20_000),
  /** The intermediate certificates (PEM), leaf's issuer first. */
  chain: pem(60_000).nullable().optional(),
  force_https: z.boolean().default(false),
});

/** `PATCH sslcerts/{certId}`: force HTTPS on or off, or (custom) a new certificate and key. */
export const certChange = z.object({
  force_https: z.boolean().optional(),
  certificate: pem(20_000).optional(),
  private_key: pem(20_000).optional(),
  chain: pem(60_000).nullable().optional(),
});

/** `POST letsencrypt`: a certificate for every domain of the app, from the ACME CA. */
export const letsencryptInput = z.object({
  webapp_id: z.coerce.number().int().positive(),
  /** The ACME account's address (expiry notices); none registers without one. */
  email: z.string().trim().email('An e-mail address').max(254).nullable().optional(),
  force_https: z.boolean().default(false),
});

const server = 'servers/{sid}/users/{uid}';
/** The app a certificate is for: one of the route's server, loaded by the request hook. */
const appOfBody = { of: 'webstacks', missing: 'No web app #{webapp_id} here' } as const;
const list = z.object({ data: z.array(sslCertSchema), total: z.number().int() });

export const sslcerts = defineResource({
  name: 'sslcerts',
  label: 'SSL certificates',
  parent: 'server',
  params: { certId: 'id' },
  idParam: 'certId',
  schema: sslCertSchema,
  input: customCertInput,
  paths: { list: `sslcerts/${server}`, one: `sslcerts/{certId}/${server}` },
  ops: {
    list: {
      guard: 'self',
      sort: ['created_at', 'not_after'],
      summary:
        "The server's certificates (`?webapp_id=` one app's; `?sync=true` compares them with the server's files)",
      filters: z.object({
        webapp_id: z.coerce.number().int().positive().optional(),
        sync: z.enum(['true', 'false']).optional(),
      }),
    },
    get: { guard: 'self' },
    create: {
      guard: 'self',
      summary:
        'Install an uploaded certificate on an app: its key must match, it must be valid now and name the app',
      bodyLoads: { webapp_id: appOfBody },
    },
    update: {
      guard: 'self',
      method: 'PATCH',
      summary: 'Turn "force HTTPS" on or off, or replace an uploaded certificate and key',
      body: certChange,
    },
    delete: {
      guard: 'self',
      summary: 'Take the certificate off the app: its files and its HTTPS server go',
    },
  },
  actions: {
    letsencrypt: {
      method: 'POST',
      path: `letsencrypt/${server}`,
      guard: 'self',
      summary: "Issue a Let's Encrypt certificate for every domain of an app (HTTP-01)",
      body: letsencryptInput,
      bodyLoads: { webapp_id: appOfBody },
      response: sslCertSchema,
      status: 201,
    },
    renew: {
      method: 'PATCH',
      path: `letsencrypt/{certId}/${server}`,
      guard: 'self',
      summary: "Renew a Let's Encrypt certificate now (for the app's current domains)",
      response: sslCertSchema,
    },
    hostname: {
      method: 'GET',
      path: `sslcerts/hostname/${server}`,
      guard: 'self',
      summary:
        "The server's hostname certificates: those naming its hostname (`PUT hostname` sets it), or `?hostname=`",
      query: z.object({ hostname: domainName.optional() }),
      response: list.extend({ hostname: z.string().nullable() }),
    },
  },
  ui: {
    listFields: ['names', 'type', 'issuer', 'not_after', 'force_https', 'status'],
    formFields: ['webapp_id', 'certificate', 'private_key', 'chain', 'force_https'],
    labels: {
      names: 'Names',
      type: 'Type',
      issuer: 'Issuer',
      not_after: 'Expires',
      force_https: 'Force HTTPS',
      certificate: 'Certificate (PEM)',
      private_key: 'Private key (PEM)',
      chain: 'Chain (PEM, optional)',
    },
  },
});

/** An app's certificates (spec `sslcerts/webstacks/{appId}`): none or one. */
export const appsslcerts = defineResource({
  name: 'appsslcerts',
  label: "App's SSL certificates",
  parent: 'app',
  schema: sslCertSchema,
  paths: { list: `sslcerts/webstacks/{appId}/${server}` },
  ops: {
    list: { guard: 'self', sort: ['created_at'], summary: "The app's certificate (none or one)" },
  },
});

export const resources = { sslcerts, appsslcerts };

/** The certificate as read on the server. */
export const certInfo = z.object({
  names: z.array(z.string()),
  issuer: z.string(),
  not_before: z.string(),
  not_after: z.string(),
});

/**
 * PEM blocks as the agent gets them: written again by the panel from what it parsed (so only
 * the blocks' own characters), checked again by nginx.
 */
const pemText = z
  .string()
  .max(100_000)
  .regex(/^(-----BEGIN [A-Z0-9 ]+-----\n[A-Za-z0-9+/=\n]+-----END [A-Z0-9 ]+-----\n)+$/);

/** An https URL without credentials (the ACME directory). */
const acmeUrl = z
  .string()
  .url()
  .max(500)
  .regex(/^https:\/\/[A-Za-z0-9.-]+(:\d+)?(\/[A-Za-z0-9._~/-]*)?$/);

/** A file on the server: absolute, plain characters, no `..`. */
const serverPath = z
  .string()
  .max(300)
  .regex(/^\/[A-Za-z0-9._/-]+$/)
  .refine((p) => !p.split('/').includes('..'));

export const ops = {
  /**
   * Writes the app's certificate files (when given; else those in place stay) and its vhost
   * with the HTTPS server, as one nginx transaction: a refusal puts both back.
   */
  'ssl.install': op(
    z.object({
      app: appSpec,
      files: z.object({ fullchain: pemText, privkey: pemText }).nullable(),
    }),
    certInfo,
    120_000,
  ),
  /**
   * Asks the ACME CA for a certificate of the app's domains (certbot, webroot HTTP-01), copies
   * it to the app's certificate folder and serves it, as `ssl.install` does.
   */
  'ssl.letsencrypt': op(
    z.object({
      app: appSpec,
      email: z.string().email().max(254).nullable(),
      directory: acmeUrl,
      /** The CA bundle certbot trusts for the directory (a test CA), or the system's. */
      ca_bundle: serverPath.nullable(),
      /** Renew now even when the certificate is far from its end. */
      force: z.boolean(),
    }),
    certInfo,
    300_000,
  ),
  /** The certificates the server's files hold, by app name (for the read-back). */
  'ssl.list': op(z.object({}), z.array(certInfo.extend({ app: z.string() }))),
  /** Serves the app without HTTPS again and removes its certificate (and certbot's lineage). */
  'ssl.remove': op(
    z.object({ app: appSpec, name: appName }),
    z.object({ removed: z.boolean() }),
    120_000,
  ),
};
