import type { FastifyBaseLogger } from 'fastify';
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

/** The panel's collaborators, built once per app and reached as `app.services`. */
export interface Services {
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
}

export function createServices(
  db: Db,
  config: Config,
  secrets: InstallSecrets,
  log: FastifyBaseLogger,
  clock: Clock = Date.now,
): Services {
  const sessions = new Sessions(db, secrets.jwtKey, config.tokenTtlSeconds, clock);
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
    mailer: new Mailer(db, log.child({ module: 'mail' }), {
      smtpUrl: config.smtpUrl,
      from: config.mailFrom,
    }),
    box: new SecretBox(secrets.encryptionKey),
  };
}
