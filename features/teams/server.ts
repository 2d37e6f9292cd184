import * as teams from '../../server/db/migrations/0003_teams';
import type { Db } from '../../server/db/database';
import { defineServerFeature } from '../../server/feature';
import type { ServiceDeps } from '../../server/serviceDeps';
import { teamHandlers, teamInviteHandlers, teamServerHandlers } from './serverHandlers';
import { TeamInviteRepository } from './serverInvites';
import { TeamRepository } from './serverRepository';

/** The repositories and clients of teams (issue 4). */
export interface TeamsServices {
  teams: TeamRepository;
  teamInvites: TeamInviteRepository;
}

export function createTeamsServices(deps: ServiceDeps): TeamsServices {
  return { teams: new TeamRepository(deps.db), teamInvites: new TeamInviteRepository(deps.db) };
}

/** `{teamId}` as the `{uid}` user reaches it (owner or member), for the request hook. */
const teamOfAccount = (db: Db, uid: number, teamId: number | string) =>
  new TeamRepository(db).findOwned(uid, Number(teamId));
/** `{uuid}`: an invitation to the `{uid}` user's address, for the request hook. */
const inviteOfAccount = (db: Db, uid: number, id: number | string) =>
  new TeamInviteRepository(db).findOwned(uid, String(id));

declare module '../../server/http/children' {
  interface FeatureChildRows {
    teams: NonNullable<Awaited<ReturnType<typeof teamOfAccount>>>;
    'team-invites': NonNullable<Awaited<ReturnType<typeof inviteOfAccount>>>;
  }
}

declare module '../../server/serviceTypes' {
  // The feature's services join `app.services` (server/services.ts).
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- members come from the extended interface
  interface Services extends TeamsServices {}
}

/** The panel side of the feature (issue 4's account area). */
export const server = defineServerFeature({
  handlers: [teamHandlers, teamInviteHandlers, teamServerHandlers],
  accountChildren: { teams: teamOfAccount, 'team-invites': inviteOfAccount },
  migrations: { '0003_teams': teams },
  services: createTeamsServices,
  on: {
    /**
     * A transferred server leaves its former owner's teams (in the transfer's transaction): their
     * members stop reaching it.
     */
    async 'server.transferred'({ server }, { db }) {
      await db.deleteFrom('team_servers').where('server_id', '=', server.id).execute();
    },
  },
});
