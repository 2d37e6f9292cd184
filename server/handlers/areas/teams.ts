import type { BoundHandlers } from '../../http/handlers';
import { teamHandlers, teamInviteHandlers, teamServerHandlers } from '../teams';

/** The server side of resources/areas/teams.ts. */
export const teamsHandlers: readonly BoundHandlers[] = [
  teamHandlers,
  teamInviteHandlers,
  teamServerHandlers,
];
