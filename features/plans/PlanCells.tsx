import { Typography } from '@mui/material';
import type { RaRecord } from 'ra-core';
import { formatMoney } from './money';

/** A price as people read it: 1200 USD is "12.00 USD" (minor units by the currency). */
export function priceCell(field: 'monthly_price' | 'annual_price') {
  return function PriceCell(record: RaRecord) {
    return (
      <Typography variant="body2" sx={{ fontVariantNumeric: 'tabular-nums' }}>
        {formatMoney(Number(record[field]), String(record.currency))}
      </Typography>
    );
  };
}

/** A limit: its number, or for null "No limit" (a plan) or "—" (an add-on adds none). */
export function limitCell(field: string) {
  return function LimitCell(record: RaRecord) {
    const value = record[field] as number | null;
    const none = record.kind === 'addon' ? '—' : 'No limit';
    return <Typography variant="body2">{value === null ? none : String(value)}</Typography>;
  };
}
