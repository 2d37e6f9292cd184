import { useState } from 'react';
import { Button } from '@mui/material';
import { type RaRecord, useNotify, useRefresh } from 'ra-core';
import { errorMessage } from '../../src/generic/serverErrors';
import { useStackdeckData } from '../../src/hooks';
import type { AppRelease } from './resource';
import { type App, APP_LABELS } from './urls';

/**
 * "Check for new releases" of an official source: the newest version and its published
 * checksum pinned, or the reason it could not be (the previous pin stays), in words.
 */
export function CheckButton({ record }: { record: RaRecord }) {
  const dp = useStackdeckData();
  const notify = useNotify();
  const refresh = useRefresh();
  const [busy, setBusy] = useState(false);
  if (record.source !== 'official') return null;
  const check = async () => {
    setBusy(true);
    try {
      const pinned = await dp.action<AppRelease>('app-releases', 'check', {
        params: { id: record.id as number },
      });
      notify(
        `${APP_LABELS[pinned.app]} ${pinned.version} is pinned (SHA-256 ${pinned.sha256.slice(0, 12)}…)`,
        { type: 'success' },
      );
      refresh();
    } catch (error) {
      notify(errorMessage(error, 'The check failed'), { type: 'error', autoHideDuration: null });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button size="small" variant="outlined" disabled={busy} onClick={() => void check()}>
      {busy ? 'Checking…' : `Check for new releases of ${APP_LABELS[record.app as App]}`}
    </Button>
  );
}
