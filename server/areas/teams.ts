import type { ServiceDeps } from '../services';
import { TeamRepository } from '../repositories/teams';

/** The repositories and clients of teams (issue 4), merged into `app.services`. */
export interface TeamsServices {
  teams: TeamRepository;
}

export function createTeamsServices(deps: ServiceDeps): TeamsServices {
  return { teams: new TeamRepository(deps.db) };
}
