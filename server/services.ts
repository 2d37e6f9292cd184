import type { FastifyBaseLogger } from 'fastify';
import { type TeamsServices, createTeamsServices } from './areas/teams';
import { type DnsServices, createDnsServices } from './areas/dns';
import { type TicketsServices, createTicketsServices } from './areas/tickets';
import { type ReferralsServices, createReferralsServices } from './areas/referrals';
import { CallerLookup } from './auth/callers';
import { OneTimeCodes } from './auth/codes';
import { SecretBox } from './auth/secretBox';
import { type Clock, Sessions } from './auth/sessions';
import type { Config } from './config';
import type { Db } from './db/database';
import { Mailer } from './mail/mailer';
import { LogRepository } from './repositories/logs';
import { ServerAccountsRepository } from './repositories/serverAccounts';
import { ServerLogRepository } from './repositories/serverLog';
import { ServerRepository } from './repositories/servers';
import { TaskRepository } from './repositories/tasks';
import { UserRepository } from './repositories/users';
import type { InstallSecrets } from './secrets';
import type { ServiceDeps } from './serviceDeps';

/** The panel's collaborators, built once per app and reached as `app.services`. */
export interface Services extends TeamsServices, DnsServices, TicketsServices, ReferralsServices {
  users: UserRepository;
  servers: ServerRepository;
  serverLog: ServerLogRepository;
  serverAccounts: ServerAccountsRepository;
  tasks: TaskRepository;
  logs: LogRepository;
  sessions: Sessions;
  callers: CallerLookup;
  codes: OneTimeCodes;
  mailer: Mailer;
  box: SecretBox;
  /** The panel's clock (tests fix it): TOTP checks read the time from it. */
  clock: Clock;
}

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
  const deps: ServiceDeps = { db, config, secrets, log, clock, mailer, box };
  return {
    users: new UserRepository(db),
    servers: new ServerRepository(db),
    serverLog: new ServerLogRepository(db),
    serverAccounts: new ServerAccountsRepository(db),
    tasks: new TaskRepository(db),
    logs: new LogRepository(db),
    sessions,
    callers: new CallerLookup(db, sessions),
    codes: new OneTimeCodes(db, secrets.jwtKey, clock),
    mailer,
    box,
    clock,
    ...createTeamsServices(deps),
    ...createDnsServices(deps),
    ...createTicketsServices(deps),
    ...createReferralsServices(deps),
  };
}
