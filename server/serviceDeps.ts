import type { FastifyBaseLogger } from 'fastify';
import type { SecretBox } from './auth/secretBox';
import type { Clock } from './auth/sessions';
import type { Config } from './config';
import type { Db } from './db/database';
import type { OutboundPolicy } from './http/outbound';
import type { Mailer } from './mail/mailer';
import type { InstallSecrets } from './secrets';

/**
 * What a feature's services are built from. Declared apart from server/services.ts, which gathers
 * the feature folders, so a feature imports this and never the builder that imports it.
 */
export interface ServiceDeps {
  db: Db;
  config: Config;
  secrets: InstallSecrets;
  log: FastifyBaseLogger;
  clock: Clock;
  mailer: Mailer;
  box: SecretBox;
  /** Connections to addresses users give (server/http/outbound.ts); closed with the app. */
  outbound: OutboundPolicy;
}
