import type { ServiceDeps } from '../serviceDeps';
import { TeamInviteRepository } from '../repositories/teamInvites';
import { TeamRepository } from '../repositories/teams';

/** The repositories and clients of teams (issue 4), merged into `app.services`. */
export interface TeamsServices {
  teams: TeamRepository;
  teamInvites: TeamInviteRepository;
}

export function createTeamsServices(deps: ServiceDeps): TeamsServices {
  return { teams: new TeamRepository(deps.db), teamInvites: new TeamInviteRepository(deps.db) };
}
