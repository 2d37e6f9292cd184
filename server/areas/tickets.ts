import type { ServiceDeps } from '../services';

/** The repositories and clients of support tickets (issue 4), merged into `app.services`. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled as the area lands
export interface TicketsServices {}

export function createTicketsServices(deps: ServiceDeps): TicketsServices {
  void deps;
  return {};
}
