import { useState } from 'react';
import { Alert, Button, Snackbar, Tooltip } from '@mui/material';
import OpenInNew from '@mui/icons-material/OpenInNew';
import type { RaRecord } from 'ra-core';
import type { z } from 'zod';
import { errorMessage } from '../../src/generic/serverErrors';
import { useStackdeckData } from '../../src/hooks';
import type { pmaLoginAnswer } from './resource';

/**
 * Opens the server's phpMyAdmin signed in as a temporary account with this database user's
 * grants: a one-time link, asked for on click. The tab is opened at once (a tab opened after
 * the answer would be a blocked pop-up) and sent to the link when it comes.
 */
export function PhpMyAdminButton({
  sid,
  user,
  disabled,
}: {
  sid: number;
  user: RaRecord;
  disabled?: boolean;
}) {
  const dataProvider = useStackdeckData();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const name = String(user.name);
  const open = async () => {
    const tab = window.open('about:blank', '_blank');
    if (tab) tab.opener = null;
    setBusy(true);
    try {
      const answer = await dataProvider.action<z.infer<typeof pmaLoginAnswer>>(
        'phpmyadmin-login',
        'login',
        { params: { sid }, query: { dbuser: user.id } },
      );
      if (tab) tab.location.href = answer.url;
      else window.location.assign(answer.url);
    } catch (e) {
      tab?.close();
      setError(errorMessage(e, 'phpMyAdmin could not be opened.'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Tooltip title={`Open phpMyAdmin as ${name}`}>
        <span>
          <Button
            aria-label={`phpMyAdmin as ${name}`}
            size="small"
            endIcon={<OpenInNew fontSize="small" />}
            onClick={() => void open()}
            disabled={disabled || busy || user.status !== 'active'}
          >
            phpMyAdmin
          </Button>
        </span>
      </Tooltip>
      <Snackbar open={error !== null} autoHideDuration={8000} onClose={() => setError(null)}>
        <Alert severity="error" onClose={() => setError(null)}>
          {error}
        </Alert>
      </Snackbar>
    </>
  );
}
