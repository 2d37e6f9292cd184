import { Alert, Button, Tooltip } from '@mui/material';
import SyncAlt from '@mui/icons-material/SyncAlt';
import { useState } from 'react';

/**
 * "Check against the server": the list read again with `?sync=true`, each row marked missing
 * or changed where the server's MariaDB differs from what the panel holds.
 */
export function useDriftCheck(online: boolean, what: string) {
  const [checking, setChecking] = useState(false);
  return {
    filter: checking ? { sync: 'true' } : undefined,
    button: (
      <Tooltip title={online ? '' : 'The server is offline'}>
        <span>
          <Button
            variant="outlined"
            startIcon={<SyncAlt />}
            disabled={!online}
            onClick={() => setChecking(!checking)}
            aria-pressed={checking}
          >
            {checking ? 'Stop checking' : 'Check against the server'}
          </Button>
        </span>
      </Tooltip>
    ),
    notice: checking ? (
      <Alert severity="info" sx={{ mb: 2 }} data-testid="sync-notice">
        Compared with the server&apos;s MariaDB: {what} the server does not have is marked missing,
        one that differs from what the panel holds is marked changed. Saving it writes it again.
      </Alert>
    ) : null,
  };
}
