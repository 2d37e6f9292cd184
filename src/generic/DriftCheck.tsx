import type { ReactNode } from 'react';
import { useState } from 'react';
import { Alert, Button, Tooltip } from '@mui/material';
import SyncAlt from '@mui/icons-material/SyncAlt';

/**
 * "Check against the server": a server-managed list read again with `?sync=true`, each row
 * marked missing or changed where the server differs from what the panel holds. The page puts
 * `button` beside its heading, `notice` before the list (it says what was compared: the
 * feature's own words) and `filter` on the list.
 */
export function useDriftCheck(online: boolean, notice: ReactNode) {
  const [checking, setChecking] = useState(false);
  return {
    checking,
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
        {notice}
      </Alert>
    ) : null,
  };
}
