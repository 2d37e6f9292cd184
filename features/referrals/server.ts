import * as referrals from '../../server/db/migrations/0006_referrals';
import { defineServerFeature } from '../../server/feature';
import { referralHandlers, referralWithdrawalHandlers } from '../../server/handlers/referrals';
import { ReferralRepository } from '../../server/repositories/referrals';
import type { ServiceDeps } from '../../server/serviceDeps';

/** The repositories and clients of referrals (issue 4). */
export interface ReferralsServices {
  referrals: ReferralRepository;
}

export function createReferralsServices(deps: ServiceDeps): ReferralsServices {
  return { referrals: new ReferralRepository(deps.db) };
}

declare module '../../server/serviceTypes' {
  // The feature's services join `app.services` (server/services.ts).
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- members come from the extended interface
  interface Services extends ReferralsServices {}
}

/** The panel side of the feature (issue 4's account area). */
export const server = defineServerFeature({
  handlers: [referralHandlers, referralWithdrawalHandlers],
  migrations: { '0006_referrals': referrals },
  services: createReferralsServices,
});
