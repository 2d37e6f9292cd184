import { Button, Chip, CircularProgress, Stack, TableCell, TableRow } from '@mui/material';
import { useState } from 'react';
import type { ServiceStatus } from './resource';
import type { SERVICE_ACTIONS } from '../../resources/agent/validators';
import { ConfirmButton } from '../../src/pages/server/ConfirmButton';

export type ServiceAction = (typeof SERVICE_ACTIONS)[number];

export const SERVICE_LABELS: Record<string, string> = {
  nginx: 'nginx',
  mariadb: 'MariaDB',
  'php-fpm': 'PHP-FPM',
  supervisor: 'Supervisor',
  cron: 'Cron',
  sshd: 'SSH server',
  ftp: 'FTP',
  mail: 'Mail (Postfix, Dovecot)',
};

function StateChip({ service }: { service: ServiceStatus }) {
  if (!service.installed) return <Chip size="small" variant="outlined" label="Not installed" />;
  return service.running ? (
    <Chip size="small" color="success" label="Running" />
  ) : (
    <Chip size="small" color="error" variant="outlined" label="Stopped" />
  );
}

interface Props {
  service: ServiceStatus;
  disabled: boolean;
  control: (action: ServiceAction) => Promise<unknown>;
}

/** One service: its state and its controls; a spinner while an action runs. */
export function ServiceRow({ service, disabled, control }: Props) {
  const [running, setRunning] = useState<ServiceAction | null>(null);
  const off = disabled || running !== null || !service.installed;
  const run = async (action: ServiceAction) => {
    setRunning(action);
    try {
      await control(action);
    } catch {
      // notified by the caller
    } finally {
      setRunning(null);
    }
  };
  const label = SERVICE_LABELS[service.name] ?? service.name;
  const button = (action: ServiceAction, text: string, show: boolean) =>
    show ? (
      <Button
        size="small"
        disabled={off}
        onClick={() => void run(action)}
        aria-label={`${text} ${label}`}
      >
        {text}
      </Button>
    ) : null;

  return (
    <TableRow data-testid={`service-${service.name}`}>
      <TableCell>
        <strong>{label}</strong>
        <div style={{ fontSize: 12, opacity: 0.7 }}>{service.units.join(', ')}</div>
      </TableCell>
      <TableCell>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <StateChip service={service} />
          {running ? <CircularProgress size={16} aria-label={`${running} in progress`} /> : null}
        </Stack>
      </TableCell>
      <TableCell align="right">
        <Stack direction="row" spacing={0.5} sx={{ justifyContent: 'flex-end' }}>
          {button('start', 'Start', !service.running)}
          {service.running ? (
            <ConfirmButton
              size="small"
              color="warning"
              disabled={off}
              aria-label={`Stop ${label}`}
              title={`Stop ${label}?`}
              content="What depends on it stops working until it is started again."
              confirmLabel="Stop"
              onConfirm={() => run('stop')}
            >
              Stop
            </ConfirmButton>
          ) : null}
          {button('restart', 'Restart', true)}
          {button('reload', 'Reload', service.running)}
        </Stack>
      </TableCell>
    </TableRow>
  );
}
