import { ReferralRepository } from '../repositories/referrals';
import type { ServiceDeps } from '../serviceDeps';

/** The repositories and clients of referrals (issue 4), merged into `app.services`. */
export interface ReferralsServices {
  referrals: ReferralRepository;
}

export function createReferralsServices(deps: ServiceDeps): ReferralsServices {
  return { referrals: new ReferralRepository(deps.db) };
}
