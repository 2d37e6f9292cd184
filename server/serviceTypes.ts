import type { CallerLookup } from './auth/callers';
import type { OneTimeCodes } from './auth/codes';
import type { SecretBox } from './auth/secretBox';
import type { Clock, Sessions } from './auth/sessions';
import type { Db } from './db/database';
import type { OutboundPolicy } from './http/outbound';
import type { Mailer } from './mail/mailer';
import type { LogRepository } from './repositories/logs';
import type { ServerLogRepository } from './repositories/serverLog';
import type { ServerRepository } from './repositories/servers';
import type { TaskRepository } from './repositories/tasks';
import type { UserRepository } from './repositories/users';

/**
 * The panel's collaborators, built once per app and reached as `app.services`; the feature
 * folders add theirs by augmenting this interface (features/<name>/server.ts:
 * `declare module '../../server/serviceTypes'`). Apart from server/services.ts, the builder,
 * which imports the features: augmenting it would close an import cycle.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the features add the members
export interface Services extends CoreServices {}

/** The panel's own collaborators. */
export interface CoreServices {
  users: UserRepository;
  servers: ServerRepository;
  serverLog: ServerLogRepository;
  tasks: TaskRepository;
  logs: LogRepository;
  sessions: Sessions;
  callers: CallerLookup;
  codes: OneTimeCodes;
  mailer: Mailer;
  box: SecretBox;
  /** Connections to addresses users give (server/http/outbound.ts); closed with the app. */
  outbound: OutboundPolicy;
  /** The panel's clock (tests fix it): TOTP checks read the time from it. */
  clock: Clock;
  /**
   * What the features run as a system user (server/dependents.ts): reached here, not imported,
   * because it gathers every feature and features/sysusers, which refuses a deletion by it, is
   * one of them (an import would close a cycle).
   */
  usesOfSystemUser: (db: Db, serverId: number, userName: string) => Promise<string[]>;
}
