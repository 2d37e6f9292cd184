import type { ResourceDef } from '../../resources/define';
import { teamInvites, teamServers, teams } from '../../resources/teams';

/** The resources of teams (issue 4). */
export const resources = {
  teams,
  'team-invites': teamInvites,
  'team-servers': teamServers,
} as const satisfies Record<string, ResourceDef>;

/** No agent ops: the account area lives in the panel. */
export const ops = {};
