/**
 * restic's REST backend protocol (restic doc/REST_backend.rst, rest-server's repo/repo.go),
 * served by the panel under `/restic/{repo}/` for its own backup storage. Not part of the JSON
 * API: it is a protocol restic speaks, so it authenticates itself (HTTP Basic, the repository's
 * uuid and secret) instead of the panel's guards.
 *
 * Append-only, always: a client may create, read, list and add objects, and remove locks; it may
 * not replace or remove anything else (403), so a compromised server cannot destroy its own
 * history. The panel prunes with plain `restic -r <dir>` on the files (BackupRepositories
 * `localPath`), which needs no role over HTTP.
 */
import { createReadStream } from 'node:fs';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { HttpError, unauthorized } from '../../server/http/errors';
import { FailureCounter } from '../../server/plugins/rateLimit';
import { basicCredentials } from './serverRepoAuth';
import { parseRange } from './serverRepoRange';
import { type Entry, OBJECT_TYPES, isRepoId } from './serverRepoStore';
import { type WriteOutcome, writeEntry } from './serverRepoWrite';

const V2 = 'application/vnd.x.restic.rest.v2';
const V1 = 'application/vnd.x.restic.rest.v1';

const repoParams = z.object({ repo: z.string().refine(isRepoId) });
const typeParams = repoParams.extend({ type: z.enum(OBJECT_TYPES) });
const objectParams = typeParams.extend({ name: z.string().regex(/^[0-9a-f]{64}$/) });
type ObjectParams = z.infer<typeof objectParams>;

const STATUS: Record<WriteOutcome, number> = {
  created: 200,
  exists: 403,
  mismatch: 400,
  'too-large': 413,
  'no-repo': 404,
  'no-space': 507,
  aborted: 400,
};

const WORDS: Record<WriteOutcome, string> = {
  created: 'Created',
  exists: 'The object exists already; this storage never replaces one',
  mismatch: "The content's sha256 is not the object's name",
  'too-large': 'The object is too large',
  'no-repo': 'No such repository',
  'no-space': 'The storage is full',
  aborted: 'The upload ended early',
};

export default async function resticRoutes(app: FastifyInstance): Promise<void> {
  const repos = app.services.backupRepositories;
  const store = repos.store;
  // Bodies are streamed to disk by the handlers: no parser here reads or buffers them.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_req, _payload, done) => done(null));

  // restic authenticates every request: only failures count, per client address, and ten times
  // the sign-in limit, since restic runs several requests at once.
  const failures = new FailureCounter();
  app.addHook('onRequest', async (req, reply) => {
    const key = `restic:${req.ip}`;
    const slot = failures.take(key, app.config.authRateLimit * 10, Date.now());
    if (!slot.ok) {
      reply.header('retry-after', slot.ttl);
      throw new HttpError(429, `Too many attempts, try again in ${slot.ttl} seconds`);
    }
    const repo = (req.params as { repo?: string }).repo ?? '';
    const given = basicCredentials(req.headers.authorization);
    const row =
      given && given.user === repo && isRepoId(repo) ? await repos.verify(repo, given.pass) : null;
    if (!row) {
      reply.header('www-authenticate', 'Basic realm="restic"');
      throw unauthorized();
    }
    failures.giveBack(key);
  });

  const entryOf = (p: ObjectParams): Entry => ({ kind: 'object', type: p.type, name: p.name });

  const head = async (reply: FastifyReply, repo: string, entry: Entry) => {
    const size = await store.size(repo, entry);
    if (size === null) throw new HttpError(404, 'Not found');
    return reply.header('content-length', size).send();
  };

  const get = async (req: FastifyRequest, reply: FastifyReply, repo: string, entry: Entry) => {
    const size = await store.size(repo, entry);
    if (size === null) throw new HttpError(404, 'Not found');
    const file = store.pathOf(repo, entry);
    reply.type('application/octet-stream').header('accept-ranges', 'bytes');
    const range = parseRange(req.headers.range, size);
    if (range.kind === 'unsatisfiable') {
      return reply.code(416).header('content-range', `bytes */${size}`).send();
    }
    if (range.kind === 'whole') {
      return reply.header('content-length', size).send(createReadStream(file));
    }
    const { start, end } = range;
    return reply
      .code(206)
      .header('content-range', `bytes ${start}-${end}/${size}`)
      .header('content-length', end - start + 1)
      .send(createReadStream(file, { start, end }));
  };

  const post = async (req: FastifyRequest, reply: FastifyReply, repo: string, entry: Entry) => {
    const outcome = await writeEntry(store, repo, entry, req.raw);
    if (outcome === 'created') return reply.code(200).send();
    throw new HttpError(STATUS[outcome], WORDS[outcome]);
  };

  app.post('/restic/:repo/', { schema: { params: repoParams } }, async (req, reply) => {
    const { repo } = req.params as z.infer<typeof repoParams>;
    if ((req.query as Record<string, unknown>).create !== 'true')
      throw new HttpError(400, 'POST to a repository creates it: ?create=true');
    await store.create(repo);
    return reply.code(200).send();
  });

  const config: Entry = { kind: 'config' };
  const configRoute = '/restic/:repo/config';
  const withRepo = { schema: { params: repoParams } };
  const repoOf = (req: FastifyRequest) => (req.params as z.infer<typeof repoParams>).repo;
  app.head(configRoute, withRepo, (req, reply) => head(reply, repoOf(req), config));
  app.get(configRoute, { ...withRepo, exposeHeadRoute: false }, (req, reply) =>
    get(req, reply, repoOf(req), config),
  );
  app.post(configRoute, withRepo, (req, reply) => post(req, reply, repoOf(req), config));
  app.delete(configRoute, withRepo, async () => {
    throw new HttpError(403, 'This storage is append-only');
  });

  app.get(
    '/restic/:repo/:type/',
    { schema: { params: typeParams }, exposeHeadRoute: false },
    async (req, reply) => {
      const { repo, type } = req.params as z.infer<typeof typeParams>;
      const listed = await store.list(repo, type);
      if (!listed) throw new HttpError(404, 'Not found');
      if (req.headers.accept === V2) return reply.type(V2).send(JSON.stringify(listed));
      return reply.type(V1).send(JSON.stringify(listed.map((o) => o.name)));
    },
  );

  const objectRoute = '/restic/:repo/:type/:name';
  const withObject = { schema: { params: objectParams } };
  const paramsOf = (req: FastifyRequest) => req.params as ObjectParams;
  app.head(objectRoute, withObject, (req, reply) =>
    head(reply, paramsOf(req).repo, entryOf(paramsOf(req))),
  );
  app.get(objectRoute, { ...withObject, exposeHeadRoute: false }, (req, reply) =>
    get(req, reply, paramsOf(req).repo, entryOf(paramsOf(req))),
  );
  app.post(objectRoute, withObject, (req, reply) =>
    post(req, reply, paramsOf(req).repo, entryOf(paramsOf(req))),
  );
  app.delete(objectRoute, withObject, async (req, reply) => {
    const p = paramsOf(req);
    // Locks only: restic removes its own when done. Anything else is history, kept.
    if (p.type !== 'locks') throw new HttpError(403, 'This storage is append-only');
    await store.remove(p.repo, entryOf(p));
    return reply.code(200).send();
  });
}
