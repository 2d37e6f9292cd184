import type { ResourceDef } from '../define';
import { teamInvites, teamServers, teams } from '../teams';

/** The resources of teams (issue 4), merged into resources/index.ts. */
export const teamsResources = {
  teams,
  'team-invites': teamInvites,
  'team-servers': teamServers,
} as const satisfies Record<string, ResourceDef>;
