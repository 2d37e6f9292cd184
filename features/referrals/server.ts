import { defineServerFeature } from '../../server/feature';
import { HttpError } from '../../server/http/errors';
import type { ServiceDeps } from '../../server/serviceDeps';
import { sameMailbox } from './mailboxes';
import {
  referralHandlers,
  referralWithdrawalHandlers,
  withdrawRequestHandlers,
} from './serverHandlers';
import * as referrals from './serverMigration';
import { ReferralRepository } from './serverRepository';

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

const ownLink = 'You cannot use your own referral link';

/** The panel side of the feature (issue 4's account area). */
export const server = defineServerFeature({
  handlers: [referralHandlers, referralWithdrawalHandlers, withdrawRequestHandlers],
  migrations: { '0006_referrals': referrals },
  services: createReferralsServices,
  on: {
    /** Self-referral: the referrer's own mailbox (case, +tags, Gmail dots aside) earns nothing. */
    async 'user.registering'({ email, referrer }) {
      if (referrer && sameMailbox(referrer.email, email))
        throw new HttpError(400, ownLink, { email: ownLink });
    },
  },
});
