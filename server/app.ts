import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import type { Clock } from './auth/sessions';
import type { Config } from './config';
import { openDatabase } from './db/database';
import { migrateToLatest } from './db/migrate';
import { allHandlers } from './handlers';
import { mountResources } from './http/mount';
import { responseSerializerCompiler } from './http/serializer';
import authPlugin from './plugins/auth';
import documentsPlugin from './plugins/documents';
import errorsPlugin from './plugins/errors';
import openapiPlugin from './plugins/openapi';
import rateLimitPlugin from './plugins/rateLimit';
import securityHeadersPlugin from './plugins/securityHeaders';
import shutdownPlugin from './plugins/shutdown';
import spaPlugin from './plugins/spa';
import { loadOrCreateSecrets } from './secrets';
import { createServices } from './services';
import { featureEventBus, featureRoutes } from './features';
import { type ExtraJobs, jobRegistry } from './jobs/registry';
import { startJobs } from './jobs/start';
import { raiseTaskFailures } from './tasks/taskEvents';
import { taskOrphans } from './tasks/taskOps';
import { createGateway } from './agents/gateway';
import installRoutes from './agents/installRoutes';
import './types';

export interface BuildOptions {
  config: Config;
  logger?: FastifyServerOptions['logger'];
  /** The time sessions and codes see; tests move it forward instead of waiting. */
  clock?: Clock;
  /** Caps every op's time-out, so a test of a silent agent takes a second, not half a minute. */
  maxOpTimeoutMs?: number;
  /** Jobs and schedules besides the declared ones: tests and benchmarks only (main.ts adds none). */
  jobs?: ExtraJobs;
}

const SECRET_QUERY = /([?&](?:otp|code|token|api_secret)=)[^&]*/gi;

/** Pino options for the panel: no tokens, secrets or codes ever reach the log. */
export function loggerOptions(level: string): FastifyServerOptions['logger'] {
  return {
    level,
    redact: ['req.headers.authorization', 'req.headers["x-api-secret"]', 'req.headers.cookie'],
    serializers: {
      req: (req: { method: string; url: string; ip?: string }) => ({
        method: req.method,
        url: req.url.replace(SECRET_QUERY, '$1***'),
        remoteAddress: req.ip,
      }),
    },
  };
}

/** Builds the panel: plugins first, then routes (the fastify/demo order). Call `listen` or `inject`. */
export async function build({
  config,
  logger = false,
  clock = Date.now,
  maxOpTimeoutMs,
  jobs,
}: BuildOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger,
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    // Ids in logs; the client may not choose them.
    requestIdHeader: false,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler);

  const secrets = loadOrCreateSecrets(config.dataDir);
  const { db, dialect } = openDatabase({
    ...config,
    onPoolError: (error) => app.log.warn({ err: error.message }, 'database connection lost'),
  });
  app.addHook('onClose', async () => {
    await app.services.mailer.flush();
    app.services.mailer.close();
    await app.services.outbound.dispatcher.close();
    await db.destroy();
  });
  await migrateToLatest(db);

  app.decorate('config', config);
  app.decorate('db', db);
  app.decorate('dialect', dialect);
  app.decorate('services', createServices(db, config, secrets, app.log, clock));
  const gateway = createGateway(app, { maxOpTimeoutMs });
  app.decorate('agents', gateway.hub);
  // Late steps and replies of long ops find their tasks (after a restart, too).
  gateway.hub.orphans = taskOrphans(app);
  app.decorate('live', gateway.live);
  app.decorate('events', featureEventBus(app));
  raiseTaskFailures(app);
  // Jobs and schedules (server/jobs): the sweeper and the features' periodic work among them.
  const work = startJobs(app, jobRegistry(jobs));
  app.decorate('jobs', work.queue);
  app.addHook('onReady', async () => {
    // Entries a stopped panel left pending, failed before anything else asks.
    await app.services.serverLog.failStale(5 * 60_000);
    gateway.live.start();
    await work.start();
  });
  app.addHook('preClose', async () => {
    await work.stop();
    // Drop the sockets only: io.close() would close the HTTP server under Fastify's own close
    // and hold in-flight requests before they can be told to close their connections.
    gateway.io.disconnectSockets(true);
    gateway.io.engine.close();
    await gateway.live.stop();
  });

  await app.register(shutdownPlugin);
  await app.register(securityHeadersPlugin);
  await app.register(errorsPlugin);
  await app.register(authPlugin);
  await app.register(rateLimitPlugin);
  await app.register(openapiPlugin);

  app.get('/healthz', async () => {
    await db.selectFrom('users').select('id').limit(1).execute();
    return { status: 'ok' };
  });
  await app.register(
    async (api) => {
      mountResources(api, allHandlers);
    },
    { prefix: '/api/v1' },
  );
  await app.register(installRoutes);
  // The features' protocols outside the API (restic's REST backend...), each authenticating itself.
  for (const routes of featureRoutes) await app.register(routes);
  await app.register(documentsPlugin);
  await app.register(spaPlugin);
  return app;
}
