import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { GUARDS, type Guard } from '../../resources/define';
import { TokenExpiredError } from '../auth/sessions';
import { type Caller, actsForSomeoneElse } from '../http/caller';
import { HttpError, fieldError, forbidden, notFound, unauthorized } from '../http/errors';
import { ID_PATTERN } from '../http/ids';
import { accountChildLoaderEntries } from '../features';
import { fitsKind } from '../http/routeParams';

const API_PREFIX = '/api/v1/';

export interface RegisteredRoute {
  method: string;
  url: string;
  guard: Guard;
}

async function resolveCaller(app: FastifyInstance, req: FastifyRequest): Promise<Caller | null> {
  // The scheme is case-insensitive (RFC 9110 §11.1).
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
  if (bearer) {
    try {
      return await app.services.callers.fromToken(bearer);
    } catch (error) {
      if (error instanceof TokenExpiredError) throw unauthorized('token expired');
      if (error instanceof HttpError) throw error;
      throw unauthorized('invalid token');
    }
  }
  const key = req.headers['x-api-key'];
  const secret = req.headers['x-api-secret'];
  if (typeof key === 'string' && typeof secret === 'string')
    return app.services.callers.fromApiKey(key, secret, req.ip);
  return null;
}

/**
 * The one authorization hook. It resolves the caller, then applies the route's declared guard:
 * `{uid}` must be the caller (admins may name anyone); `{sid}` is loaded through the tenant and
 * a child id under it through that server; a foreign id answers 404. It runs on
 * onRequest, before any body is read, so nothing reaches a handler unchecked.
 */
export default fp(async function authPlugin(app: FastifyInstance) {
  app.decorateRequest('caller', null);
  app.decorateRequest('managedServer', null);
  app.decorateRequest('child', null);
  app.decorateRequest('within', null);
  app.decorateRequest('webapp', null);
  app.decorateRequest('loaded', null);
  // The app's own loaders (a test app swaps one to prove the derived rows notice a broken one);
  // the query ids' are added as the routes that declare them mount.
  app.decorate('rowLoaders', {
    account: new Map(accountChildLoaderEntries()),
    query: new Map(),
  });
  const registered: RegisteredRoute[] = [];
  app.decorate('registeredRoutes', registered);

  app.addHook('onRoute', (route) => {
    route.config ??= {};
    const config = route.config as { guard?: Guard };
    if (route.url.startsWith(API_PREFIX)) {
      if (!config.guard || !GUARDS.includes(config.guard)) {
        throw new Error(`${String(route.method)} ${route.url} declares no guard`);
      }
    } else {
      // Outside the API: health check, docs, the SPA's files. Public by nature.
      config.guard ??= 'public';
    }
    for (const method of [route.method].flat())
      registered.push({ method, url: route.url, guard: config.guard });
  });

  app.addHook('onRequest', async (req) => {
    const config = req.routeOptions.config;
    const guard = config.guard;
    if (!req.routeOptions.url) return; // not found: answered by the 404 handler
    // Public calls act for nobody: a token sent along (even a stale one) is ignored, so it can
    // neither block signing in again nor be recorded as the actor of someone else's sign-up.
    if (guard === 'public') return;
    const caller = await resolveCaller(app, req);
    if (!caller) throw unauthorized();
    req.caller = caller;

    const params = (req.params ?? {}) as Record<string, string>;
    // A malformed {uid} names nobody: 404 for every caller, before any guard decides.
    if (params.uid !== undefined && !ID_PATTERN.test(params.uid)) throw notFound();
    const uid = params.uid === undefined ? undefined : Number(params.uid);
    switch (guard) {
      case 'user':
        break;
      case 'self':
        if (uid === undefined)
          throw new Error(`guard "self" on ${req.routeOptions.url} without {uid}`);
        if (uid !== caller.id && !caller.isAdmin && !(config.staffMay && caller.isStaff))
          throw notFound();
        break;
      case 'staff':
        if (!caller.isAdmin && !caller.isStaff) throw forbidden('Admin access required');
        break;
      case 'admin':
        if (!caller.isAdmin) throw forbidden('Admin access required');
        break;
      default:
        throw forbidden('Route without guard');
    }
    if (config.forbidWhileActing && actsForSomeoneElse(caller, uid)) {
      throw forbidden('Only the account holder can do this, not an admin acting for them');
    }
    // {sid} is looked up through the tenant: a server of the path's user or shared with one of
    // their teams, or 404. A foreign server never reaches a handler, let alone an agent. Team
    // access is read on every request: a removed member is refused on their next one.
    if (params.sid !== undefined) {
      if (!ID_PATTERN.test(params.sid) || uid === undefined) throw notFound();
      const server = await app.services.servers.findAccessible(Number(params.sid), uid);
      if (!server) throw notFound();
      if (server.user_id !== uid) {
        if (config.ownerOnly) throw forbidden(`Only the server's owner can ${config.ownerOnly}`);
      }
      req.managedServer = server;
      // A child id in the path is loaded through that server: one of another server (another
      // tenant's, or another of the same user's) is as missing as one that does not exist.
      // The app of a resource under `app` likewise, through the server; its children then
      // through the app: a child of the server's other app is as missing as a stranger's.
      if (config.app) {
        const raw =
          config.app.where === 'path'
            ? params.appId
            : (req.query as Record<string, unknown> | undefined)?.wsid;
        // A missing `?wsid=` is the query's validation to refuse (400 naming it), which runs
        // before any handler; a malformed or foreign one is as missing as a stranger's app.
        if (raw !== undefined) {
          if (typeof raw !== 'string' || !ID_PATTERN.test(raw)) throw notFound();
          const webapp = await config.app.load(app.db, server, Number(raw));
          if (!webapp) throw notFound();
          req.webapp = webapp;
        } else if (config.app.where === 'path') throw notFound();
      }
      if (config.child) {
        const raw = params[config.child.param];
        const byId = config.child.kind === 'id';
        if (raw === undefined || (byId ? !ID_PATTERN.test(raw) : raw.length > 255))
          throw notFound();
        const child = await config.child.load(app.db, server, byId ? Number(raw) : raw);
        if (!child) throw notFound();
        if (
          config.app &&
          (child as { webapp_id?: unknown }).webapp_id !== (req.webapp as { id: number } | null)?.id
        )
          throw notFound();
        req.child = child;
      }
    } else if (config.child || config.app) {
      throw new Error(`${req.routeOptions.url}: a child parameter without {sid}`);
    }
    // A child held by another row of the account (a record in a zone) is loaded within that
    // row, which is loaded through the user first.
    if (config.holder) {
      const raw = params[config.holder.param];
      if (uid === undefined || raw === undefined || !fitsKind(config.holder.kind, raw))
        throw notFound();
      const load = app.rowLoaders.account.get(config.holder.resource);
      const row = await load?.(app.db, uid, config.holder.kind === 'id' ? Number(raw) : raw);
      if (!row) throw notFound();
      req.within = row;
    }
    // A row of an account (a ticket, a zone, a team) is loaded through the `{uid}` user the
    // guard matched: another account's is as missing as one that does not exist.
    if (config.owned) {
      const raw = params[config.owned.param];
      const byId = config.owned.kind === 'id';
      if (uid === undefined || raw === undefined || !fitsKind(config.owned.kind, raw))
        throw notFound(config.owned.missing);
      const load = app.rowLoaders.account.get(config.owned.resource);
      const row = await load?.(app.db, uid, byId ? Number(raw) : raw, req.within ?? undefined);
      if (!row) throw notFound(config.owned.missing);
      req.child = row;
    }
    // A row a query value names (`loads`: `?dbuser=`, `?server=`), like a path id: a child of
    // the route's server through it, any other through the `{uid}` user (or the caller, where
    // the path names none). Another tenant's or an absent one answers 404 in the route's words.
    if (config.queryIds) {
      const query = (req.query ?? {}) as Record<string, unknown>;
      const loaded: Record<string, unknown> = {};
      for (const id of config.queryIds) {
        const raw = query[id.param];
        // Absent, or refused by its own schema: the query's validation answers, 400 naming it
        // (where the schema requires it), before any handler runs.
        if (raw === undefined || !id.field.safeParse(raw).success) continue;
        const words = id.missing?.replaceAll(`{${id.param}}`, String(raw));
        const missing = () =>
          id.fieldError ? fieldError(id.param, words ?? 'No such row') : notFound(words);
        if (typeof raw !== 'string' || !fitsKind(id.kind, raw)) throw missing();
        if (id.through === 'server' && !req.managedServer) throw missing();
        const load = app.rowLoaders.query.get(id.of);
        const owner = {
          uid: uid ?? caller.id,
          server: req.managedServer,
          ownedOnly: id.ownedOnly,
        };
        const row = await load?.(app, owner, id.kind === 'id' ? Number(raw) : raw);
        if (!row) throw missing();
        loaded[id.param] = row;
      }
      req.loaded = loaded;
    }
  });

  // A row a body field names (`bodyLoads`: an app, a list of databases), after the body's
  // validation: through the route's server, or the `{uid}` user (the caller without one).
  // Another tenant's or an absent one is refused at the field, as a form's bad choice is.
  app.addHook('preHandler', async (req) => {
    const ids = req.routeOptions.config.bodyIds;
    if (!ids || !req.caller) return;
    const body = (req.body ?? {}) as Record<string, unknown>;
    // Validated by now: `{uid}` is a number, and the guard matched it to the caller.
    const uid = (req.params as Record<string, unknown> | undefined)?.uid;
    const owner = (ownedOnly: boolean) => ({
      uid: uid === undefined ? req.caller!.id : Number(uid),
      server: req.managedServer,
      ownedOnly,
    });
    const loaded: Record<string, unknown> = { ...req.loaded };
    for (const id of ids) {
      const value = body[id.field];
      if (value === undefined || value === null) continue;
      const values = id.list ? (value as unknown[]) : [value];
      const load = app.rowLoaders.query.get(id.of);
      const rows: unknown[] = [];
      for (const one of values) {
        const raw = String(one);
        const row =
          fitsKind(id.kind, raw) && (id.through === 'user' || req.managedServer)
            ? await load?.(app, owner(id.ownedOnly), id.kind === 'id' ? Number(raw) : raw)
            : undefined;
        if (!row) throw fieldError(id.field, id.missing.replaceAll(`{${id.field}}`, raw));
        rows.push(row);
      }
      loaded[id.field] = id.list ? rows : rows[0];
    }
    req.loaded = loaded;
  });
});
