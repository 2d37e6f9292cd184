import { DnsProviderError, providerFetch } from '../dns/provider';

/**
 * Cheap authenticated calls that tell whether a token of a non-DNS integration works, each as
 * the provider documents it. A refusal throws DnsProviderError `auth`; no answer, `unreachable`.
 */

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
    throw new DnsProviderError('auth', `GitHub refused the token${said ? `: ${said}` : ''}`);
  throw new DnsProviderError('unreachable', `GitHub answered ${res.status}`);
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
    throw new DnsProviderError('auth', `Hetzner Cloud refused the token${said ? `: ${said}` : ''}`);
  throw new DnsProviderError('unreachable', `Hetzner Cloud answered ${res.status}`);
}
