/**
 * The integrations a user may connect (spec 7 "Third-party keys") and the shapes of their
 * credentials: loaded by the panel, the browser and the features that use the keys (DNS).
 */
import { z } from 'zod';

/** What an integration is for: the groups of /3rd-party-integration. */
export const INTEGRATION_KINDS = ['dns', 'cloud', 'git', 'storage'] as const;
export type IntegrationKind = (typeof INTEGRATION_KINDS)[number];

export interface IntegrationInfo {
  kind: IntegrationKind;
  name: string;
  /** The credential asked for. */
  secretLabel: string;
  /** An API address must be given (a self-hosted PowerDNS, an S3 endpoint). */
  needsUrl: boolean;
  /** A public key id goes with the secret (S3's access key id). */
  needsKeyId: boolean;
  /** The panel checks the credential with the provider when it is saved. */
  checked: boolean;
  help: string;
}

/** The integrations a user may connect. `powerdns` and `cloudflare` are the DNS providers. */
export const INTEGRATIONS = {
  powerdns: {
    kind: 'dns',
    name: 'PowerDNS',
    secretLabel: 'API key',
    needsUrl: true,
    needsKeyId: false,
    checked: true,
    help: "The server's API address (its webserver, e.g. http://ns1.example.com:8081) and its api-key.",
  },
  cloudflare: {
    kind: 'dns',
    name: 'Cloudflare',
    secretLabel: 'API token',
    needsUrl: false,
    needsKeyId: false,
    checked: true,
    help: 'An API token with Zone:Edit and DNS:Edit permissions (My Profile → API Tokens).',
  },
  hetzner: {
    kind: 'cloud',
    name: 'Hetzner Cloud',
    secretLabel: 'API token',
    needsUrl: false,
    needsKeyId: false,
    checked: true,
    help: 'A read & write API token of your Hetzner Cloud project.',
  },
  github: {
    kind: 'git',
    name: 'GitHub',
    secretLabel: 'Personal access token',
    needsUrl: false,
    needsKeyId: false,
    checked: true,
    help: 'A fine-grained personal access token with read access to the repositories you deploy.',
  },
  s3: {
    kind: 'storage',
    name: 'S3-compatible storage',
    secretLabel: 'Secret access key',
    needsUrl: true,
    needsKeyId: true,
    checked: true,
    help: 'The endpoint (e.g. https://s3.eu-central-1.amazonaws.com), access key id and secret.',
  },
} as const satisfies Record<string, IntegrationInfo>;

export type IntegrationId = keyof typeof INTEGRATIONS;
export const INTEGRATION_IDS = Object.keys(INTEGRATIONS) as [IntegrationId, ...IntegrationId[]];
/** The `{dnsprovider}` path segment: an allowlist, one route each. */
export const DNS_PROVIDERS = ['powerdns', 'cloudflare'] as const;
export type DnsProviderId = (typeof DNS_PROVIDERS)[number];

export const integrationLabel = z
  .string()
  .trim()
  .min(1, 'Give the account a label')
  .max(64)
  .regex(/^[A-Za-z0-9][A-Za-z0-9 ._-]*$/, 'Letters, digits, spaces, dots, dashes and underscores');

const apiUrl = z
  .url({ protocol: /^https?$/, message: 'An http:// or https:// address' })
  .max(500)
  .transform((u) => u.replace(/\/+$/, ''));

const secret = z
  .string()
  .trim()
  .min(8, 'The credential is too short')
  .max(4096)
  .regex(/^[\x21-\x7e]+$/, 'The credential has no spaces or control characters');

/** A stored credential as the API shows it: never the secret, only its last four characters. */
export const thirdPartyKeySchema = z.object({
  id: z.number().int(),
  integration: z.enum(INTEGRATION_IDS),
  kind: z.enum(INTEGRATION_KINDS),
  label: z.string(),
  api_url: z.string().nullable(),
  key_id: z.string().nullable(),
  /** `••••` and the last four characters of the secret. */
  hint: z.string(),
  checked_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ThirdPartyKey = z.infer<typeof thirdPartyKeySchema>;

/** A new credential. Which fields are required depends on the integration (checked on save). */
export const thirdPartyKeyInput = z.object({
  integration: z.enum(INTEGRATION_IDS),
  label: integrationLabel,
  api_url: apiUrl.optional(),
  key_id: z.string().trim().min(1).max(256).optional(),
  secret,
});

/** Replacing a credential: a new secret, and optionally a new label, address or key id. */
export const thirdPartyKeyUpdate = thirdPartyKeyInput.omit({ integration: true }).partial({
  label: true,
});
