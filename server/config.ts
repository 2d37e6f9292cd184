import { isIP } from 'node:net';
import path from 'node:path';
import { parseOutboundAllow } from './http/outbound';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** `postgres://...` switches from the embedded SQLite file to PostgreSQL. */
  databaseUrl: string | null;
  smtpUrl: string | null;
  /** Mail sender address. */
  mailFrom: string;
  /** Where users reach the panel; used in mails and install commands. */
  publicUrl: string;
  adminEmail: string | null;
  adminPassword: string | null;
  /** Fastify's trustProxy: false unless a proxy is configured, so X-Forwarded-For is ignored. */
  trustProxy: boolean | string;
  tokenTtlSeconds: number;
  /** Sign-in, OTP and reset calls allowed per client and per account in one minute. */
  authRateLimit: number;
  logLevel: string;
  /** The built SPA; null serves no UI (API-only tests). */
  webDir: string | null;
  /** The bundled agent the install script downloads. */
  agentBundle: string;
  redisUrl: string | null;
  /** Cloudflare API v4 base URL (a test points it at tests/fakes/cloudflare.ts). */
  cloudflareApiUrl: string;
  /** GitHub's REST API, where a token is checked on save (tests: tests/fakes/github.ts). */
  githubApiUrl: string;
  /** Hetzner Cloud's API, where a token is checked on save (tests: tests/fakes/hetzner.ts). */
  hetznerApiUrl: string;
  /**
   * Null: "Check for new releases" asks the projects' own hosts. Set (tests only): every official
   * host is reached at `<this>/<host>/<path>` (tests/fakes/releaseSources.ts).
   */
  releaseSourcesUrl: string | null;
  /**
   * Private or local hosts, addresses and CIDRs that addresses users give (a PowerDNS API) may
   * reach; everything else private is refused (server/http/outbound.ts).
   */
  outboundAllow: string[];
  /**
   * The DNS servers (`host` or `host:port`) the mail-authentication check asks
   * (MAIL_DNS_RESOLVERS, comma-separated); empty: the system's.
   */
  mailDnsResolvers: string[];
}

function intFrom(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0)
    throw new Error(`${name} must be a whole number, got "${value}"`);
  return n;
}

function trustProxyFrom(value: string | undefined): boolean | string {
  if (!value || value === 'false') return false;
  if (value === 'true') return true;
  return value; // comma-separated addresses or CIDRs of the trusted proxies
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = intFrom(env.PORT, 8080, 'PORT');
  const databaseUrl = env.DATABASE_URL || null;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new Error(
      'DATABASE_URL must be a postgres:// URL (leave it unset for the embedded SQLite)',
    );
  }
  return {
    port,
    host: env.HOST || '0.0.0.0',
    dataDir: path.resolve(env.DATA_DIR || './data'),
    databaseUrl,
    smtpUrl: env.SMTP_URL || null,
    mailFrom: env.MAIL_FROM || 'Stackdeck <no-reply@stackdeck.local>',
    publicUrl: (env.PUBLIC_URL || `http://localhost:${port}`).replace(/\/+$/, ''),
    adminEmail: env.ADMIN_EMAIL || null,
    adminPassword: env.ADMIN_PASSWORD || null,
    trustProxy: trustProxyFrom(env.TRUST_PROXY),
    tokenTtlSeconds: intFrom(env.TOKEN_TTL_SECONDS, 24 * 3600, 'TOKEN_TTL_SECONDS'),
    authRateLimit: intFrom(env.AUTH_RATE_LIMIT, 5, 'AUTH_RATE_LIMIT'),
    logLevel: env.LOG_LEVEL || 'info',
    webDir: env.WEB_DIR === '' ? null : path.resolve(env.WEB_DIR || 'dist/web'),
    agentBundle: path.resolve(env.AGENT_BUNDLE || 'dist/agent/stackdeck-agent.mjs'),
    redisUrl: env.REDIS_URL || null,
    cloudflareApiUrl: (env.CLOUDFLARE_API_URL || 'https://api.cloudflare.com/client/v4').replace(
      /\/+$/,
      '',
    ),
    githubApiUrl: (env.GITHUB_API_URL || 'https://api.github.com').replace(/\/+$/, ''),
    hetznerApiUrl: (env.HETZNER_API_URL || 'https://api.hetzner.cloud/v1').replace(/\/+$/, ''),
    releaseSourcesUrl: env.RELEASE_SOURCES_URL?.replace(/\/+$/, '') || null,
    outboundAllow: parseOutboundAllow(env.OUTBOUND_ALLOW),
    mailDnsResolvers: parseResolvers(env.MAIL_DNS_RESOLVERS),
  };
}

/**
 * DNS servers as Node's resolver takes them (`1.1.1.1`, `127.0.0.1:5300`, `[::1]:53`): refused
 * at start, in words, rather than as a failed DNS check later.
 */
function parseResolvers(value: string | undefined): string[] {
  const servers = (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const server of servers) {
    const v6 = /^\[([^\]]+)\](?::(\d+))?$/.exec(server);
    const v4 = /^([^:]+)(?::(\d+))?$/.exec(server);
    const [host, port] = v6 ? [v6[1], v6[2]] : v4 ? [v4[1], v4[2]] : [server, undefined];
    const portOk = port === undefined || (Number(port) >= 1 && Number(port) <= 65_535);
    if (!isIP(host ?? '') || (v6 && isIP(host ?? '') !== 6) || !portOk)
      throw new Error(
        `MAIL_DNS_RESOLVERS: "${server}" is no DNS server address (an IP, optionally :port; IPv6 as [addr]:port)`,
      );
  }
  return servers;
}
