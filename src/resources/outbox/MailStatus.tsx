import { Chip, Tooltip } from '@mui/material';
import type { RaRecord } from 'ra-core';

/**
 * Failed (with the SMTP error on hover), sent over SMTP, or kept in the outbox only: without
 * SMTP_URL the outbox is the delivery, with it the mail is on its way.
 */
export function MailStatus({ record }: { record: RaRecord }) {
  if (record.error) {
    return (
      <Tooltip title={String(record.error)}>
        <Chip size="small" color="error" variant="outlined" label="Failed" />
      </Tooltip>
    );
  }
  return record.sent_at ? (
    <Chip size="small" color="success" label="Sent" />
  ) : (
    <Tooltip title="Not sent over SMTP: no SMTP server is configured, or delivery is still under way.">
      <Chip size="small" variant="outlined" label="In outbox" />
    </Tooltip>
  );
}
