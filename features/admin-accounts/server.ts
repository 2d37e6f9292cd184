import { defineServerFeature } from '../../server/feature';
import { adminAccountHandlers, adminServerHandlers } from './serverAccounts';
import * as adminServersIndexes from './serverMigration';

/** The panel side of the admin area's servers and accounts (issue 26, without billing). */
export const server = defineServerFeature({
  handlers: [adminServerHandlers, adminAccountHandlers],
  migrations: { '0062_admin_servers_indexes': adminServersIndexes },
});
