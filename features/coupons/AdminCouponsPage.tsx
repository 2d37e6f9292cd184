import { Box, Button, Typography } from '@mui/material';
import Add from '@mui/icons-material/Add';
import LocalOfferOutlined from '@mui/icons-material/LocalOfferOutlined';
import type { RaRecord } from 'ra-core';
import { Link } from 'react-router-dom';
import { GenericList } from '../../src/generic/GenericList';
import { formatMoney } from '../plans/api';
import { couponPaths } from './links';
import { coupons } from './resource';

const mono = { fontFamily: 'monospace', fontSize: 13 } as const;

/** What a coupon takes off, in words: "25 %" or "5.00 USD". */
function offCell(r: RaRecord) {
  const text =
    r.kind === 'percent'
      ? `${String(r.percent_off)} %`
      : formatMoney(Number(r.amount_off), String(r.currency));
  return <Typography variant="body2">{text}</Typography>;
}

function durationCell(r: RaRecord) {
  const text =
    r.duration === 'recurring' ? `${String(r.duration_periods)} periods` : String(r.duration);
  return <Typography variant="body2">{text}</Typography>;
}

function redeemedCell(r: RaRecord) {
  const max = r.max_redemptions as number | null;
  return (
    <Typography variant="body2">
      {String(r.redeemed)}
      {max === null ? '' : ` of ${max}`}
    </Typography>
  );
}

/** /admin/coupons: the coupons, how far each has been redeemed. */
export default function AdminCouponsPage() {
  const add = (
    <Button component={Link} to={couponPaths.add} variant="contained" startIcon={<Add />}>
      Add coupon
    </Button>
  );
  return (
    <Box>
      <GenericList
        resource={coupons}
        title="Coupons"
        description="Codes users apply to a subscription. Each user redeems a coupon once; a coupon already redeemed is retired when removed, its redemptions kept."
        actions={add}
        columns={['code', 'kind', 'duration', 'expires_at', 'redeemed', 'active']}
        labels={{ kind: 'Off' }}
        sort={{ field: 'created_at', order: 'DESC' }}
        render={{
          code: (r: RaRecord) => <Typography sx={mono}>{String(r.code)}</Typography>,
          kind: offCell,
          duration: durationCell,
          redeemed: redeemedCell,
        }}
        deletable={{
          what: (r) => `the coupon ${String(r.code)}`,
          consequence: (r) =>
            Number(r.redeemed) > 0
              ? 'It has been redeemed: it is retired (no longer redeemable), its redemptions kept.'
              : 'No one redeemed it yet.',
        }}
        empty={{
          title: 'No coupons',
          text: 'Add a coupon: a percentage or an amount off, once, for some periods or forever.',
          icon: LocalOfferOutlined,
          action: add,
        }}
      />
    </Box>
  );
}
