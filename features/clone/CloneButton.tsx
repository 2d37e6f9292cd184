import { useState } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle } from '@mui/material';
import ContentCopy from '@mui/icons-material/ContentCopy';
import { Create } from 'ra-ui-materialui';
import { GenericForm } from '../../src/generic/GenericForm';
import { useSaveOutcome } from '../../src/generic/saveOutcome';
import { InstallProgress } from '../installers/pagesApi';
import type { InstallAnswer } from '../installers/api';
import { cloneWebapp } from './resource';

/**
 * "Clone" on an app's summary: the copy's name, domains and user in a dialog, then the clone's
 * progress there (the messages panel shows it too, and keeps it after the dialog is closed).
 */
export function CloneButton({
  sid,
  appId,
  name,
  disabled,
}: {
  sid: number;
  appId: number;
  name: string;
  disabled?: boolean;
}) {
  const [open, setOpen] = useState(false);
  const [answer, setAnswer] = useState<InstallAnswer | null>(null);
  const outcome = useSaveOutcome({ resource: cloneWebapp, mode: 'create', noun: 'The clone' });
  const close = () => {
    setOpen(false);
    setAnswer(null);
  };
  return (
    <>
      <Button
        variant="outlined"
        startIcon={<ContentCopy />}
        onClick={() => setOpen(true)}
        disabled={disabled}
      >
        Clone
      </Button>
      <Dialog open={open} onClose={close} fullWidth maxWidth="sm" aria-labelledby="clone-title">
        <DialogTitle id="clone-title">Clone {name}</DialogTitle>
        <DialogContent>
          {answer ? (
            <InstallProgress
              sid={sid}
              label={name}
              answer={answer}
              onRetry={() => setAnswer(null)}
              words={{
                running: `Cloning ${name}…`,
                done: 'The copy is ready',
                failed: `${name} could not be cloned`,
              }}
            />
          ) : (
            <Create
              resource={cloneWebapp.name}
              title={false}
              actions={false}
              redirect={false}
              mutationOptions={{
                meta: { sid, appId },
                onSuccess: (data: unknown) => setAnswer(data as InstallAnswer),
                onError: outcome.onError,
              }}
              sx={{ '& .RaCreate-card': { boxShadow: 'none' } }}
            >
              <GenericForm
                resource={cloneWebapp}
                mode="create"
                meta={{ sid, appId }}
                saveLabel="Clone"
              />
            </Create>
          )}
        </DialogContent>
        {answer ? (
          <DialogActions>
            <Button onClick={close}>Close</Button>
          </DialogActions>
        ) : null}
      </Dialog>
    </>
  );
}
