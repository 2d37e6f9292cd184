import { IconButton, Tooltip } from '@mui/material';
import PlayArrowOutlined from '@mui/icons-material/PlayArrowOutlined';
import RestartAltOutlined from '@mui/icons-material/RestartAltOutlined';
import StopOutlined from '@mui/icons-material/StopOutlined';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type RaRecord, useNotify } from 'ra-core';
import { useState } from 'react';
import { Confirm } from 'ra-ui-materialui';
import { errorMessage } from '../../src/generic/serverErrors';
import { useStackdeckData } from '../../src/hooks';
import { processesKey } from './useProcesses';

type Action = 'start' | 'stop' | 'restart';

const ICONS = { start: PlayArrowOutlined, stop: StopOutlined, restart: RestartAltOutlined };
const LABELS = { start: 'Start', stop: 'Stop', restart: 'Restart' };

/**
 * Start, stop and restart a job's processes (`svjobs/handle?name&action`); stopping and
 * restarting interrupt the program, so they ask first.
 */
export function JobControls({
  sid,
  job,
  disabled,
}: {
  sid: number;
  job: RaRecord;
  disabled?: boolean;
}) {
  const dataProvider = useStackdeckData();
  const queryClient = useQueryClient();
  const notify = useNotify();
  const [asking, setAsking] = useState<Action | null>(null);
  const name = String(job.name);
  const control = useMutation({
    mutationFn: (action: Action) =>
      dataProvider.action('svjobs', 'handle', { params: { sid }, query: { name, action } }),
    onSuccess: (_, action) => {
      void queryClient.invalidateQueries({ queryKey: processesKey(sid) });
      notify(`${LABELS[action]}: ${name}`, { type: 'info' });
    },
    onError: (error) => notify(errorMessage(error, 'supervisor did not do it'), { type: 'error' }),
    onSettled: () => setAsking(null),
  });
  const off = disabled || job.status !== 'active' || control.isPending;
  return (
    <>
      {(['start', 'stop', 'restart'] as const).map((action) => {
        const Icon = ICONS[action];
        const label = `${LABELS[action]} ${name}`;
        return (
          <Tooltip key={action} title={label}>
            <span>
              <IconButton
                aria-label={label}
                size="small"
                disabled={off}
                onClick={() => (action === 'start' ? control.mutate(action) : setAsking(action))}
              >
                <Icon fontSize="small" />
              </IconButton>
            </span>
          </Tooltip>
        );
      })}
      <Confirm
        isOpen={asking !== null}
        loading={control.isPending}
        title={asking ? `${LABELS[asking]} ${name}?` : ''}
        content={
          asking === 'stop'
            ? `Its processes stop, children too, until you start it again.`
            : `Its processes stop, children too, and start again.`
        }
        confirm={asking ? LABELS[asking] : ''}
        confirmColor="warning"
        onConfirm={() => asking && control.mutate(asking)}
        onClose={() => setAsking(null)}
      />
    </>
  );
}
