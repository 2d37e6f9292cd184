import { type ReactNode, useState } from 'react';
import { Button, Stack } from '@mui/material';
import LockResetOutlined from '@mui/icons-material/LockResetOutlined';
import VerifiedUserOutlined from '@mui/icons-material/VerifiedUserOutlined';
import { type RaRecord, useNotify, useRefresh } from 'ra-core';
import { useStackdeckData } from '../../hooks';
import { errorMessage } from '../../generic/serverErrors';
import { ActAsButton } from './ActAsButton';

/** One admin action on an account: a declared, audited call, then the list reloads. */
function ActionButton({
  record,
  action,
  label,
  icon,
  done,
}: {
  record: RaRecord;
  action: 'confirm' | 'sendPasswordReset';
  label: string;
  icon: ReactNode;
  done: string;
}) {
  const dataProvider = useStackdeckData();
  const notify = useNotify();
  const refresh = useRefresh();
  const [busy, setBusy] = useState(false);
  return (
    <Button
      size="small"
      variant="outlined"
      startIcon={icon}
      disabled={busy}
      sx={{ whiteSpace: 'nowrap' }}
      aria-label={`${label}: ${String(record.email)}`}
      onClick={(event) => {
        event.stopPropagation();
        setBusy(true);
        dataProvider
          .action('admin-users', action, { params: { uid: record.id } })
          .then(() => {
            notify(done, { type: 'success' });
            refresh();
          })
          .catch((error: unknown) => notify(errorMessage(error), { type: 'error' }))
          .finally(() => setBusy(false));
      }}
    >
      {label}
    </Button>
  );
}

/**
 * What an admin does for an account. The outbox never shows codes (reading one would be taking
 * the account over), so instead: confirm an account whose mail reached no one, mail its owner a
 * fresh password reset, or act as a (non-admin) user. Each is in the user's activity log.
 */
export function AccountActions({ record }: { record: RaRecord }) {
  return (
    <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
      {record.confirmed ? null : (
        <ActionButton
          record={record}
          action="confirm"
          label="Confirm"
          icon={<VerifiedUserOutlined />}
          done={`${String(record.email)} is confirmed and can sign in.`}
        />
      )}
      {record.disabled ? null : (
        <ActionButton
          record={record}
          action="sendPasswordReset"
          label="Send reset mail"
          icon={<LockResetOutlined />}
          done={`A password reset mail is on its way to ${String(record.email)}.`}
        />
      )}
      {record.is_admin ? null : <ActAsButton record={record} />}
    </Stack>
  );
}
