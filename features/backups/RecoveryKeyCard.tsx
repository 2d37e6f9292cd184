import { useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
  Typography,
} from '@mui/material';
import VpnKeyOutlined from '@mui/icons-material/VpnKeyOutlined';
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { LoadError } from '../../src/generic/LoadState';
import { SectionCard } from '../../src/generic/SectionCard';
import { formatDateTime } from '../../src/generic/format';
import { useStackdeckData } from '../../src/hooks';
import { ConfirmDialog } from './ConfirmDialog';
import type { RecoveryKey, recoveryStatusSchema } from './recoveryResource';
import { recoverySheet } from './recoverySheet';

type RecoveryStatus = z.infer<typeof recoveryStatusSchema>;

/** Saves the key's sheet as a text file (the browser's download; nothing leaves the page). */
function saveSheet(made: RecoveryKey) {
  const url = URL.createObjectURL(new Blob([recoverySheet(made)], { type: 'text/plain' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = `stackdeck-recovery-key-${made.created_at.slice(0, 10)}.txt`;
  a.click();
  URL.revokeObjectURL(url);
}

/** The key, this once: shown, copied or saved; closing the dialog forgets it. */
function ShownOnce({ made, onClose }: { made: RecoveryKey; onClose: () => void }) {
  return (
    <Dialog open onClose={onClose} aria-labelledby="recovery-key-title" maxWidth="sm" fullWidth>
      <DialogTitle id="recovery-key-title">Your recovery key</DialogTitle>
      <DialogContent>
        <Alert severity="warning" sx={{ mb: 2 }}>
          This is the only time the key is shown. Save it somewhere safe, away from your servers:
          with it, anyone who reaches a repository can read your backups.
        </Alert>
        <Box
          component="code"
          data-testid="recovery-key"
          sx={{ display: 'block', p: 1.5, bgcolor: 'action.hover', borderRadius: 1, fontSize: 16 }}
        >
          {made.key}
        </Box>
        <Typography variant="body2" sx={{ mt: 2 }}>
          {made.sheet.length === 0
            ? 'No repository exists yet: each one gets this key on its first backup.'
            : `It opens ${made.sheet.filter((l) => l.covered).length} of your ${made.sheet.length} repositories; the file lists where each is and how to restore with plain restic.`}
        </Typography>
      </DialogContent>
      <DialogActions>
        <Button onClick={() => void navigator.clipboard?.writeText(made.key)}>Copy key</Button>
        <Button onClick={() => saveSheet(made)}>Download key file</Button>
        <Button variant="contained" onClick={onClose} autoFocus>
          Done
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/**
 * The account's recovery key: a second key of every repository, so plain restic restores
 * without Stackdeck. Made (or replaced) here and shown once; only its state is read back.
 */
export function RecoveryKeyCard() {
  const dp = useStackdeckData();
  const status = useQuery({
    queryKey: ['backup-recovery-key'],
    queryFn: () => dp.action<RecoveryStatus>('backup-recovery-key', 'status'),
  });
  const [asking, setAsking] = useState(false);
  const [made, setMade] = useState<RecoveryKey | null>(null);
  const data = status.data;
  const replacing = Boolean(data?.created_at);
  return (
    <SectionCard id="backup-recovery-key" title="Recovery key" icon={VpnKeyOutlined}>
      {status.error ? (
        <LoadError
          error={status.error}
          what="recovery key"
          back={{ to: '/dashboard', label: 'Dashboard' }}
          onRetry={() => void status.refetch()}
          inline
        />
      ) : (
        <Stack spacing={1} sx={{ alignItems: 'flex-start' }}>
          <Typography variant="body2" data-testid="recovery-state">
            {!data
              ? 'Loading…'
              : data.created_at
                ? `Made ${formatDateTime(data.created_at)}: it opens ${data.covered} of ${data.repositories} repositories.`
                : 'No recovery key yet. With one, your backups restore with plain restic even without this panel.'}
          </Typography>
          <Button variant="outlined" disabled={!data} onClick={() => setAsking(true)}>
            {replacing ? 'Replace the recovery key' : 'Make a recovery key'}
          </Button>
        </Stack>
      )}
      <ConfirmDialog
        open={asking}
        title={replacing ? 'Replace the recovery key?' : 'Make a recovery key?'}
        text={
          replacing
            ? 'A new key is made and shown once; the one you saved before stops opening your repositories.'
            : 'The key is shown once, in the next step: have a safe place ready to keep it.'
        }
        confirm={replacing ? 'Replace key' : 'Make key'}
        busyLabel="Adding the key to your repositories…"
        onClose={() => setAsking(false)}
        onConfirm={async () => {
          setMade(await dp.action<RecoveryKey>('backup-recovery-key', 'make'));
          await status.refetch();
        }}
      />
      {made ? <ShownOnce made={made} onClose={() => setMade(null)} /> : null}
    </SectionCard>
  );
}
