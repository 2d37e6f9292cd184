import type { ServiceDeps } from '../services';

/** The repositories and clients of teams (issue 4), merged into `app.services`. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled as the area lands
export interface TeamsServices {}

export function createTeamsServices(deps: ServiceDeps): TeamsServices {
  void deps;
  return {};
}
