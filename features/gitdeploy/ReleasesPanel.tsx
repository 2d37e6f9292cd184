import { useState } from 'react';
import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  FormControlLabel,
  Radio,
  RadioGroup,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { releasesState } from './resource';
import { useGitCall } from './useGitCall';

type Releases = z.infer<typeof releasesState>;

/** A release's name as people read it: its time (UTC) and commit, or the files from before git. */
export function releaseLabel(name: string): string {
  const [stamp = '', what = ''] = name.split('-');
  if (what === 'initial') return 'The files from before the first deploy';
  const at = `${stamp.slice(0, 4)}-${stamp.slice(4, 6)}-${stamp.slice(6, 8)} ${stamp.slice(8, 10)}:${stamp.slice(10, 12)} UTC`;
  return `${at}, commit ${what}`;
}

export function useReleases() {
  const { sid, appId, call } = useGitCall();
  return useQuery({
    queryKey: ['gitdeploy', 'releases', sid, appId],
    queryFn: () => call<Releases>('releases'),
    retry: false,
  });
}

/** Before the first deploy into a folder with files: they are kept as a release, not lost. */
export function FirstDeployNotice({ state }: { state: Releases | undefined }) {
  if (!state || state.current || !state.existing_files || !state.kept_as) return null;
  return (
    <Alert severity="info" sx={{ mb: 1 }} data-testid="first-deploy-notice">
      The app&apos;s folder has {state.existing_files.toLocaleString('en')} files and folders. The
      first deploy keeps them as the release “{state.kept_as}” (nothing is deleted), and you can
      roll back to them.
    </Alert>
  );
}

/** Roll back: a confirmation listing the kept releases, the one before the current picked. */
export function RollbackDialog({
  open,
  state,
  onClose,
  onConfirm,
}: {
  open: boolean;
  state: Releases | undefined;
  onClose: () => void;
  onConfirm: (release: string) => void;
}) {
  const choices = (state?.releases ?? []).filter((r) => r !== state?.current).reverse();
  const index = state?.current ? (state.releases.indexOf(state.current) ?? -1) : -1;
  const before = index > 0 ? state!.releases[index - 1]! : (choices[0] ?? '');
  const [picked, setPicked] = useState<string | null>(null);
  const value = picked ?? before;
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby="rollback-title">
      <DialogTitle id="rollback-title">Roll back to a kept release?</DialogTitle>
      <DialogContent>
        {choices.length ? (
          <>
            <DialogContentText sx={{ mb: 1 }}>
              The site switches to the release you pick at once; the current one stays kept.
            </DialogContentText>
            <RadioGroup value={value} onChange={(e) => setPicked(e.target.value)}>
              {choices.map((name) => (
                <FormControlLabel
                  key={name}
                  value={name}
                  control={<Radio />}
                  label={releaseLabel(name)}
                />
              ))}
            </RadioGroup>
          </>
        ) : (
          <DialogContentText>No other release is kept on the server.</DialogContentText>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" disabled={!value} onClick={() => onConfirm(value)}>
          Roll back
        </Button>
      </DialogActions>
    </Dialog>
  );
}
