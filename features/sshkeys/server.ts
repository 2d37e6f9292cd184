import type { Db } from '../../server/db/database';
import type { ServerRow } from '../../server/db/schema';
import { defineServerFeature } from '../../server/feature';
import { type PubkeyRow, pubkeyHandlers, pubkeyKind } from './serverPubkeys';
import { ServerAccountsRepository } from './serverRepository';
import { revokeKeysOfLeavers } from './serverRevocation';
import { sshconfigHandlers } from './serverSshconfig';

// The table is the panel's own (server/db/migrations); the handlers get its rows as `ctx.child`.
declare module '../../server/http/children' {
  interface FeatureChildRows {
    pubkeys: PubkeyRow;
  }
}
declare module '../../server/serviceTypes' {
  interface Services {
    /** Names and fingerprints in use, who added a key, the keys to revoke. */
    serverAccounts: ServerAccountsRepository;
  }
}

/** An SSH key the panel put on the server. */
const loadPubkey = (db: Db, server: ServerRow, id: number | string) =>
  db
    .selectFrom('pubkeys')
    .selectAll()
    .where('id', '=', Number(id))
    .where('server_id', '=', server.id)
    .executeTakeFirst();

/**
 * SSH keys (a managed kind: the sweeper settles them) and sshd's settings. A key stays only
 * while the panel user who added it reaches its server: the events that can take a server
 * away from a user take their keys off it (teams call revokeKeysOfLeavers, serverApi.ts).
 */
export const server = defineServerFeature({
  handlers: [pubkeyHandlers, sshconfigHandlers],
  managed: [pubkeyKind],
  children: { pubkeys: loadPubkey },
  services: ({ db }) => ({ serverAccounts: new ServerAccountsRepository(db) }),
  on: {
    /** Keys of users who lost the server while it was offline go now. */
    async 'server.agent-connected'({ serverId }, { app }) {
      await revokeKeysOfLeavers(app, [serverId]);
    },
    /** The former owner and their teams' members lost the server: so do the keys they added. */
    async 'server.handed-over'({ server, caller }, { app }) {
      await revokeKeysOfLeavers(app, [server.id], caller);
    },
    /** Keys a deleted user added on servers of others (as a team member) go with them. */
    async 'user.deleted'({ user }, { app }) {
      const keyServers = await app.db
        .selectFrom('pubkeys')
        .select('server_id')
        .distinct()
        .where('added_by', '=', user.id)
        .execute();
      await revokeKeysOfLeavers(
        app,
        keyServers.map((row) => row.server_id),
      );
    },
  },
});
