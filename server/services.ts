import type { FastifyBaseLogger } from 'fastify';
import { featureServices } from './features';
import { CallerLookup } from './auth/callers';
import { OneTimeCodes } from './auth/codes';
import { SecretBox } from './auth/secretBox';
import { type Clock, Sessions } from './auth/sessions';
import type { Config } from './config';
import type { Db } from './db/database';
import { usesOfSystemUser } from './dependents';
import { outboundPolicy } from './http/outbound';
import { Mailer } from './mail/mailer';
import { LogRepository } from './repositories/logs';
import { ServerLogRepository } from './repositories/serverLog';
import { ServerRepository } from './repositories/servers';
import { TaskRepository } from './repositories/tasks';
import { UserRepository } from './repositories/users';
import type { InstallSecrets } from './secrets';
import type { ServiceDeps } from './serviceDeps';
import type { CoreServices, Services } from './serviceTypes';

export type { Services };

export function createServices(
  db: Db,
  config: Config,
  secrets: InstallSecrets,
  log: FastifyBaseLogger,
  clock: Clock = Date.now,
): Services {
  const sessions = new Sessions(db, secrets.jwtKey, config.tokenTtlSeconds, clock);
  const mailer = new Mailer(db, log.child({ module: 'mail' }), {
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
  });
  const box = new SecretBox(secrets.encryptionKey);
  const outbound = outboundPolicy(config.outboundAllow);
  const deps: ServiceDeps = { db, config, secrets, log, clock, mailer, box, outbound };
  const core: CoreServices = {
    users: new UserRepository(db),
    servers: new ServerRepository(db),
    serverLog: new ServerLogRepository(db),
    tasks: new TaskRepository(db),
    logs: new LogRepository(db),
    sessions,
    callers: new CallerLookup(db, sessions),
    codes: new OneTimeCodes(db, secrets.jwtKey, clock),
    mailer,
    box,
    outbound,
    clock,
    usesOfSystemUser,
  };
  // The feature folders' own (features/<name>/server.ts `services`): each feature types its part
  // by augmenting `Services` and builds it beside that, in the same file.
  return { ...core, ...featureServices(deps) } as Services;
}
