import type { ServiceDeps } from '../services';

/** The repositories and clients of referrals (issue 4), merged into `app.services`. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled as the area lands
export interface ReferralsServices {}

export function createReferralsServices(deps: ServiceDeps): ReferralsServices {
  void deps;
  return {};
}
