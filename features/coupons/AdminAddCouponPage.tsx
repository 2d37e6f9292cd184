import { GenericCreate } from '../../src/generic/GenericCreate';
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
      saveLabel="Add coupon"
      cancelTo={couponPaths.admin}
      redirectTo={() => couponPaths.admin}
      failedTo={couponPaths.admin}
    />
  );
}
