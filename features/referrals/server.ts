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

/** The referrer's share of each invoice their referred user pays ("a share of what they pay"). */
const REFERRAL_SHARE_PERCENT = 10;

/** The panel side of the feature (issue 4's account area). */
export const server = defineServerFeature({
  handlers: [referralHandlers, referralWithdrawalHandlers, withdrawRequestHandlers],
  migrations: { '0006_referrals': referrals },
  services: createReferralsServices,
  on: {
    /**
     * A referred user paid an invoice: their referrer earns its share, in the invoice's minor
     * units (rounded down; nothing below one). Raised once per invoice (billing's conditional
     * open -> paid).
     */
    async 'invoice.paid'({ userId, number, totalMinor, currency }, { app }) {
      const user = await app.db
        .selectFrom('users')
        .select('referrer_id')
        .where('id', '=', userId)
        .executeTakeFirst();
      const share = Math.floor((totalMinor * REFERRAL_SHARE_PERCENT) / 100);
      if (!user?.referrer_id || share < 1) return;
      await app.services.referrals.recordEarning(
        user.referrer_id,
        userId,
        share,
        `${REFERRAL_SHARE_PERCENT} % of invoice ${number} (${currency})`,
      );
    },
    /** Self-referral: the referrer's own mailbox (case, +tags, Gmail dots aside) earns nothing. */
    async 'user.registering'({ email, referrer }) {
      if (referrer && sameMailbox(referrer.email, email))
        throw new HttpError(400, ownLink, { email: ownLink });
    },
  },
});
