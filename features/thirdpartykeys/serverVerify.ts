import aws4 from 'aws4';
import { ProviderError, providerFetch } from '../../server/http/providerFetch';
import type { OutboundPolicy } from '../../server/http/outbound';

// Cheap authenticated calls that tell whether a credential of a non-DNS integration works, each
// as the provider documents it. A refusal throws ProviderError `auth`; no answer, `unreachable`.

/** The provider's own words for a refusal, from the JSON body, at most 200 characters. */
async function refusal(res: { text(): Promise<string> }, read: (json: unknown) => unknown) {
  try {
    const said = read(JSON.parse(await res.text()));
    return typeof said === 'string' && said ? said.slice(0, 200) : undefined;
  } catch {
    return undefined;
  }
}

/** GitHub REST: `GET /user` answers 200 for a valid token, 401 "Bad credentials" otherwise. */
export async function verifyGithubToken(apiUrl: string, token: string): Promise<void> {
  const res = await providerFetch('GitHub', `${apiUrl}/user`, {
    method: 'GET',
    headers: {
      authorization: `Bearer ${token}`,
      accept: 'application/vnd.github+json',
      'x-github-api-version': '2022-11-28',
      'user-agent': 'Stackdeck',
    },
  });
  if (res.ok) return void (await res.body?.cancel());
  const said = await refusal(res, (j) => (j as { message?: unknown } | null)?.message);
  if (res.status === 401 || res.status === 403)
    throw new ProviderError('auth', `GitHub refused the token${said ? `: ${said}` : ''}`);
  throw new ProviderError('unreachable', `GitHub answered ${res.status}`);
}

/**
 * Hetzner Cloud: `GET /locations` needs a valid project token (read is enough) and answers 401
 * `{"error":{"code":"unauthorized",...}}` otherwise.
 */
export async function verifyHetznerToken(apiUrl: string, token: string): Promise<void> {
  const res = await providerFetch('Hetzner Cloud', `${apiUrl}/locations`, {
    method: 'GET',
    headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
  });
  if (res.ok) return void (await res.body?.cancel());
  const said = await refusal(
    res,
    (j) => (j as { error?: { message?: unknown } } | null)?.error?.message,
  );
  if (res.status === 401 || res.status === 403)
    throw new ProviderError('auth', `Hetzner Cloud refused the token${said ? `: ${said}` : ''}`);
  throw new ProviderError('unreachable', `Hetzner Cloud answered ${res.status}`);
}

/** The region an S3 endpoint's host names (AWS, Wasabi, DigitalOcean Spaces), or us-east-1. */
export function s3Region(host: string): string {
  const named =
    /^s3[.-]([a-z0-9-]+)\.amazonaws\.com$/.exec(host) ??
    /^s3\.([a-z0-9-]+)\.wasabisys\.com$/.exec(host) ??
    /^([a-z0-9-]+)\.digitaloceanspaces\.com$/.exec(host);
  return named?.[1] ?? 'us-east-1';
}

/** Error codes with which an S3 API refuses the key pair itself. */
const S3_REFUSALS = new Set([
  'InvalidAccessKeyId',
  'SignatureDoesNotMatch',
  'AuthorizationHeaderMalformed',
  'InvalidToken',
  'ExpiredToken',
  'InvalidSecurity',
]);

/**
 * S3 (and S3-compatible stores): `ListBuckets` (`GET /`) signed with AWS Signature Version 4.
 * A key that is valid but may not list buckets (`AccessDenied`) still counts as working: many
 * backup keys are limited to one bucket. The endpoint is the user's: it goes through `outbound`.
 */
export async function verifyS3Key(
  endpoint: string,
  keyId: string,
  secret: string,
  outbound: OutboundPolicy,
): Promise<void> {
  const url = new URL(`${endpoint}/`);
  const signed = aws4.sign(
    {
      host: url.host,
      path: url.pathname,
      service: 's3',
      region: s3Region(url.hostname),
      method: 'GET',
    },
    { accessKeyId: keyId, secretAccessKey: secret },
  );
  // undici sets Host from the URL, the same value that was signed.
  const { Host: _host, ...headers } = signed.headers as Record<string, string>;
  const res = await providerFetch('S3', url.href, { method: 'GET', headers }, outbound);
  const text = await res.text();
  if (res.ok) return;
  // Only an S3 error code (letters) is read back: the address is the user's, and whatever
  // else answers there must not be echoed through the panel.
  const code = /<Code>([A-Za-z]{1,64})<\/Code>/.exec(text)?.[1];
  if (code === 'AccessDenied') return;
  if (code && S3_REFUSALS.has(code))
    throw new ProviderError('auth', `S3 refused the access key (${code})`);
  throw new ProviderError(
    'invalid',
    `${url.origin} does not answer like an S3 API (HTTP ${res.status})`,
  );
}
