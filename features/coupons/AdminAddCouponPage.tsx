import { GenericCreate } from '../../src/generic/GenericCreate';
import { CURRENCY_LABELS } from '../plans/api';
import { couponPaths } from './links';
import { coupons } from './resource';

/** /admin/add-coupon: a new coupon. */
export default function AdminAddCouponPage() {
  return (
    <GenericCreate
      resource={coupons}
      title="Add a coupon"
      description="A percentage, or a fixed amount in minor units of its currency (5.00 is 500). Its terms cannot change once users redeem it."
      noun="The coupon"
      choiceLabels={{
        currency: CURRENCY_LABELS,
        kind: { percent: 'A percentage', fixed: 'A fixed amount' },
      }}
      saveLabel="Add coupon"
      cancelTo={couponPaths.admin}
      redirectTo={() => couponPaths.admin}
      failedTo={couponPaths.admin}
    />
  );
}
