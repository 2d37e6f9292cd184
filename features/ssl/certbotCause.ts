/**
 * Why a Let's Encrypt attempt failed, in words a site owner can act on, from what certbot
 * printed: the domain does not resolve, port 80 cannot be reached, the challenge file is not
 * served, a rate limit, a CAA record, the CA unreachable. Never a Python traceback: lines of
 * one (and exception class names) are dropped from the fallback too. Pure: the agent uses it.
 */

/** The first domain certbot's report names (`Domain: x`, `... for x`), if any. */
function domainOf(out: string): string | null {
  return (
    /^\s*Domain:\s*(\S+)/m.exec(out)?.[1] ??
    /looking up (?:A|AAAA|CAA|TXT) for (\S+?)(?: -|;|$)/m.exec(out)?.[1] ??
    /Fetching https?:\/\/([^/\s:]+)/.exec(out)?.[1] ??
    null
  );
}

/** certbot's output without tracebacks, log noise and rules: what is left worth reading. */
function plainLines(out: string): string[] {
  const lines: string[] = [];
  let inTraceback = false;
  for (const raw of out.split('\n')) {
    const line = raw.trim();
    if (/^Traceback \(most recent call last\)/.test(line)) {
      inTraceback = true;
      continue;
    }
    // A traceback's frames are indented; it ends at its exception line, which is dropped too.
    if (inTraceback) {
      if (/^\s/.test(raw) || /^File "/.test(line)) continue;
      inTraceback = false;
      continue;
    }
    if (!line || /^[-= ]+$/.test(line)) continue;
    if (
      /^(Saving debug log|Ask for help|See the logfile|Requesting a certificate|Renewing an existing)/.test(
        line,
      )
    )
      continue;
    lines.push(line.replace(/\b[a-z_]+(?:\.[a-z_]+)+\.[A-Z]\w*(?:Error|Exception):\s*/g, ''));
  }
  return lines;
}

const retryAfter = (out: string) => {
  const at = /retry after ([0-9-]+[ T][0-9:]+(?: UTC)?)/i.exec(out)?.[1];
  return at ? ` (again after ${at})` : '';
};

export function certbotCause(out: string): string {
  const domain = domainOf(out) ?? 'the domain';
  if (
    /too many (?:certificates|requests|failed authorizations|new orders)|rateLimited|rate limit/i.test(
      out,
    )
  )
    return `Let's Encrypt's rate limit for ${domain === 'the domain' ? 'these domains' : domain} is reached: try again later${retryAfter(out)}`;
  // Boulder (Let's Encrypt) says NXDOMAIN or "no valid A records"; pebble "could not resolve".
  if (
    /NXDOMAIN|No valid (?:IP addresses|A records) found|could not resolve URL|no such host/i.test(
      out,
    )
  )
    return `${domain} does not resolve: DNS has no record for it. Add an A (or AAAA) record pointing at this server's address, wait for it to spread, then try again`;
  if (/SERVFAIL/.test(out))
    return `The DNS servers of ${domain} fail to answer (SERVFAIL): fix the domain's DNS, then try again`;
  if (/CAA record for \S+ prevents issuance/i.test(out))
    return `A CAA record of ${domain} forbids Let's Encrypt to issue for it: allow letsencrypt.org in the domain's CAA records`;
  if (
    /Cannot issue for|rejectedIdentifier|Domain name does not end with a valid public suffix|Invalid identifiers/i.test(
      out,
    )
  )
    return `The certificate authority does not issue for ${/Cannot issue for "?([^":\s]+)/.exec(out)?.[1] ?? domain}: it must be a public domain name`;
  if (
    /Timeout during connect|Timeout after connect|timed out/i.test(out) &&
    /Domain:|Fetching|acme-challenge/.test(out)
  )
    return `The certificate authority could not connect to ${domain} on port 80 (timed out): let port 80 in through the firewall, and check that the domain points at this server`;
  if (/Connection refused/i.test(out) && /Domain:|Fetching|acme-challenge/.test(out))
    return `The certificate authority could not connect to ${domain} on port 80 (connection refused): check that the domain points at this server and port 80 is open`;
  if (/Invalid response from|unauthorized|Incorrect validation/i.test(out)) {
    const status = /Invalid response from \S+?:? "?(\d{3})/.exec(out)?.[1];
    return `${domain} did not serve the challenge file${status ? ` (it answered ${status})` : ''}: the domain points at another server, or something in front of this one (a proxy, a redirect) does not pass /.well-known/acme-challenge/ through`;
  }
  if (/DNS problem/i.test(out))
    return `The certificate authority could not look ${domain} up in DNS: check the domain's records`;
  if (
    /HTTPSConnectionPool|Max retries exceeded|Failed to establish a new connection|ConnectionError|Name or service not known|Temporary failure in name resolution|Connection refused/i.test(
      out,
    )
  ) {
    const why = /Connection refused/i.test(out)
      ? 'connection refused'
      : /Name or service not known|Temporary failure in name resolution/i.test(out)
        ? 'its name does not resolve from this server'
        : /timed out/i.test(out)
          ? 'timed out'
          : 'no connection';
    return `The certificate authority could not be reached from this server (${why}): check the server's outgoing connections and DNS`;
  }
  const lines = plainLines(out);
  const detail = lines.filter((l) => /^(Detail|Type|Domain):/.test(l));
  const said = (detail.length ? detail : lines).slice(-4).join(' ');
  return `The certificate authority refused: ${said || 'certbot gave no reason'}`;
}
