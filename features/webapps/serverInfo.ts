/**
 * What the web app forms ask of the server besides the apps: its PHP versions (installed and
 * installable, and installing one) and where a domain points.
 */
import { Resolver } from 'node:dns/promises';
import { readOp, runOp } from '../../server/agents/runOp';
import { fieldError } from '../../server/http/errors';
import type { ActionHandlers } from '../../server/http/handlers';
import { cachedServerRead, forgetServerRead } from '../../server/http/serverReadCache';
import { toAsciiDomain } from './names';
import { PHP_SOURCE_WORDS } from './schemas';
import type { webstacks } from './resource';

/** The answer to "where does this domain point": any A record of the server's address. */
async function aRecord(domain: string, serverIp: string | null) {
  const resolver = new Resolver({ timeout: 3000, tries: 1 });
  const addresses = await resolver.resolve4(domain).catch(() => [] as string[]);
  return {
    domain,
    addresses,
    server_ip: serverIp,
    points: serverIp !== null && addresses.includes(serverIp),
  };
}

export const serverInfoActions: Pick<
  ActionHandlers<typeof webstacks>,
  'php' | 'phpAvailable' | 'phpInstall' | 'aRecord'
> = {
  /** The server's PHP versions, asked at most once a minute. */
  async php(ctx) {
    const data = await cachedServerRead(
      ctx.app,
      { read: 'php.runtimes', serverId: ctx.server.id, ttlMs: 60_000 },
      async () =>
        (await readOp(ctx, 'php.runtimes', {})).map((runtime) => ({
          ...runtime,
          from: PHP_SOURCE_WORDS[runtime.source],
        })),
    );
    return { data };
  },
  /** apt's view, asked each time (a source may have been set up since). */
  async phpAvailable(ctx) {
    const data = (await readOp(ctx, 'php.available', {})).map((row) => ({
      ...row,
      from: row.source ? PHP_SOURCE_WORDS[row.source] : null,
    }));
    return { data };
  },
  async phpInstall(ctx) {
    const { version } = ctx.body;
    const runtime = await runOp(ctx, `Install PHP ${version}`, 'php.install', { version });
    forgetServerRead(ctx.app, { read: 'php.runtimes', serverId: ctx.server.id });
    return { ...runtime, from: PHP_SOURCE_WORDS[runtime.source] };
  },
  async aRecord(ctx) {
    const domain = toAsciiDomain(ctx.query.domain);
    if (!domain) throw fieldError('domain', 'A domain such as example.com');
    return aRecord(domain, ctx.server.ip4);
  },
};
