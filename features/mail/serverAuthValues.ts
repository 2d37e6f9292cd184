/**
 * The mail-authentication values of an app's mail domains, as the panel makes them for the
 * calls of authResource.ts: the domains (one by `?domain=`), the server's address and mail host,
 * and the resolver the SPF merge and the check ask (servers from MAIL_DNS_RESOLVERS).
 */
import { Resolver } from 'node:dns/promises';
import type { HandlerContext } from '../../server/http/handlers';
import { HttpError, fieldError } from '../../server/http/errors';
import { webappOf } from '../../server/http/handlers';
import type { MailRecordOut } from './authResource';
import {
  type MailDnsRecord,
  type MailDnsValues,
  mailDnsValues,
  quotedTxt,
  splitTxt,
} from './dnsValues';
import { mailRow } from './serverEnable';
import { appMailDomains } from './serverApi';

type Ctx = Pick<HandlerContext, 'app' | 'server' | 'webapp'>;

/** A resolver that gives up soon: the page waits on it. */
export function mailResolver(servers: readonly string[]): Resolver {
  const resolver = new Resolver({ timeout: 3000, tries: 1 });
  if (servers.length) resolver.setServers([...servers]);
  return resolver;
}

/** The app's mail domains (`domain` picks one: another is a 400 at the field) with their values. */
export async function appMailValues(
  ctx: Ctx,
  domain: string | undefined,
  dmarcPolicy: 'quarantine' | 'none' = 'quarantine',
): Promise<MailDnsValues[]> {
  const app = webappOf(ctx);
  const all = await appMailDomains(ctx.app.db, ctx.server.id, app.id);
  const picked = domain ? all.filter((d) => d.domain === domain) : all;
  if (domain && !picked.length)
    throw fieldError(
      'domain',
      all.length
        ? `One of the app's mail domains: ${all.map((d) => d.domain).join(', ')}`
        : `${domain} has no mail yet: add a mailbox on it first`,
    );
  if (!picked.length) return [];
  const ipv4 = ctx.server.ip4;
  if (!ipv4) throw new HttpError(409, "The server's IPv4 address is not known yet");
  const hostname = (await mailRow(ctx.app.db, ctx.server.id))?.hostname ?? null;
  return picked.map((d) =>
    mailDnsValues({
      domain: d.domain,
      dkimPublicKey: d.dkim_public_key,
      ipv4,
      mailHost: hostname ?? `mail.${d.domain}`,
      dmarcPolicy,
    }),
  );
}

/** A record as the calls answer it: its value also split and quoted for copying. */
export function recordOut(
  r: MailDnsRecord,
  policy: 'quarantine' | 'none' | null = null,
): MailRecordOut {
  return {
    kind: r.kind,
    name: r.name,
    fqdn: r.fqdn,
    type: r.type,
    content: r.content,
    content_split: r.type === 'TXT' ? splitTxt(r.content) : [r.content],
    content_quoted: r.type === 'TXT' ? quotedTxt(r.content) : r.content,
    priority: r.priority ?? null,
    ttl: r.ttl,
    why: r.why,
    policy,
  };
}
