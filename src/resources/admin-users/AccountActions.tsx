import { type ReactNode, useState } from 'react';
import { Button, Stack } from '@mui/material';
import LockResetOutlined from '@mui/icons-material/LockResetOutlined';
import VerifiedUserOutlined from '@mui/icons-material/VerifiedUserOutlined';
import BlockOutlined from '@mui/icons-material/BlockOutlined';
import LockOpenOutlined from '@mui/icons-material/LockOpenOutlined';
import { type RaRecord, useGetIdentity, useNotify, useRefresh } from 'ra-core';
import { Confirm } from 'ra-ui-materialui';
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
 * Disable an account (signed out everywhere at once, its API keys refused) or enable it again
 * (spec: `PATCH admin/users?uid` with a state body), after a confirmation. Never one's own.
 */
function StateButton({ record }: { record: RaRecord }) {
  const dataProvider = useStackdeckData();
  const notify = useNotify();
  const refresh = useRefresh();
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const disabled = Boolean(record.disabled);
  const email = String(record.email);
  const label = disabled ? 'Enable' : 'Disable';
  const run = () => {
    setBusy(true);
    dataProvider
      .action('admin-users', 'setState', {
        query: { uid: record.id },
        body: { state: disabled ? 'enabled' : 'disabled' },
      })
      .then(() => {
        notify(
          disabled
            ? `${email} is enabled and can sign in again.`
            : `${email} is disabled and signed out everywhere.`,
          { type: 'success' },
        );
        refresh();
      })
      .catch((error: unknown) => notify(errorMessage(error), { type: 'error' }))
      .finally(() => {
        setBusy(false);
        setAsking(false);
      });
  };
  return (
    <>
      <Button
        size="small"
        variant="outlined"
        color={disabled ? 'primary' : 'error'}
        startIcon={disabled ? <LockOpenOutlined /> : <BlockOutlined />}
        disabled={busy}
        sx={{ whiteSpace: 'nowrap' }}
        aria-label={`${label}: ${email}`}
        onClick={(event) => {
          event.stopPropagation();
          setAsking(true);
        }}
      >
        {label}
      </Button>
      <Confirm
        isOpen={asking}
        loading={busy}
        title={disabled ? `Enable ${email}?` : `Disable ${email}?`}
        content={
          disabled
            ? 'They can sign in again. Sessions signed out when the account was disabled stay signed out.'
            : 'They are signed out everywhere at once, live connections included, and cannot sign in or use their API keys until you enable the account again.'
        }
        confirm={label}
        confirmColor={disabled ? 'primary' : 'warning'}
        onConfirm={run}
        onClose={() => setAsking(false)}
      />
    </>
  );
}

/**
 * What an admin does for an account. The outbox never shows codes (reading one would be taking
 * the account over), so instead: confirm an account whose mail reached no one, mail its owner a
 * fresh password reset, act as a (non-admin) user, disable or enable the account (not one's
 * own). Each is in the user's activity log.
 */
export function AccountActions({ record }: { record: RaRecord }) {
  const { identity } = useGetIdentity();
  const own = identity != null && String(identity.id) === String(record.id);
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
      {record.is_admin || record.disabled ? null : <ActAsButton record={record} />}
      {own ? null : <StateButton record={record} />}
    </Stack>
  );
}
