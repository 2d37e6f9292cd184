import { Box, Grid, LinearProgress, Stack, Typography } from '@mui/material';
import Refresh from '@mui/icons-material/Refresh';
import RestartAlt from '@mui/icons-material/RestartAlt';
import CleaningServices from '@mui/icons-material/CleaningServices';
import { Button } from '@mui/material';
import { useState } from 'react';
import type { Report } from '../../../resources/agent/protocol';
import { PageHeader } from '../../generic/PageHeader';
import { formatBytes, formatPercent, formatRate, formatUptime, percentOf } from '../servers/format';
import { CleanupResult, type Freed } from './CleanupResult';
import { ConfirmButton } from './ConfirmButton';
import { HostedCounts } from './HostedCounts';
import { ConnectionChip } from './ConnectionChip';
import { OfflineNotice } from './OfflineNotice';
import { useServerPage } from './ServerContext';
import { useServerCall } from './useServerCall';

function Fact({
  label,
  value,
  gauge,
  id,
}: {
  label: string;
  value: string;
  gauge?: number;
  id: string;
}) {
  return (
    <Box
      data-testid={`fact-${id}`}
      sx={{ p: 2, border: 1, borderColor: 'divider', borderRadius: 2, height: '100%' }}
    >
      <Typography variant="caption" color="text.secondary" component="div">
        {label}
      </Typography>
      <Typography variant="body1" sx={{ fontWeight: 600, wordBreak: 'break-word' }} data-value>
        {value}
      </Typography>
      {gauge !== undefined ? (
        <LinearProgress
          variant="determinate"
          value={gauge}
          aria-label={`${label} ${formatPercent(gauge)}`}
          sx={{ mt: 1, height: 6, borderRadius: 3 }}
        />
      ) : null}
    </Box>
  );
}

type FactProps = Parameters<typeof Fact>[0];
const dash = '—';
const usedOf = (used: number, total: number) => `${formatBytes(used)} of ${formatBytes(total)}`;

/** The summary's figures: the live report where there is one, else what the server row kept. */
function summaryFacts(
  server: ReturnType<typeof useServerPage>['server'],
  report: Report | null | undefined,
): FactProps[] {
  return [
    { id: 'os', label: 'Operating system', value: report?.os ?? server.os_version ?? dash },
    {
      id: 'kernel',
      label: 'Kernel',
      value: report?.kernel_version ?? server.kernel_version ?? dash,
    },
    {
      id: 'agent',
      label: 'Agent version',
      value: report?.agent_version ?? server.agent_version ?? dash,
    },
    { id: 'hostname', label: 'Host name', value: report?.hostname ?? server.hostname ?? dash },
    { id: 'timezone', label: 'Time zone', value: report?.timezone ?? server.timezone ?? dash },
    { id: 'uptime', label: 'Uptime', value: report ? formatUptime(report.uptime) : dash },
    {
      id: 'load',
      label: 'Load (1, 5, 15 min)',
      value: report ? report.load.map((n) => n.toFixed(2)).join('  ') : dash,
    },
    {
      id: 'cpu',
      label: report ? `CPU (${report.cpu.cores} cores)` : 'CPU',
      value: report ? formatPercent(report.cpu.usage) : dash,
      gauge: report?.cpu.usage,
    },
    {
      id: 'memory',
      label: 'Memory',
      value: report ? usedOf(report.memory.used, report.memory.total) : dash,
      gauge: report ? percentOf(report.memory.used, report.memory.total) : undefined,
    },
    {
      id: 'disk',
      label: 'Disk (/)',
      value: report ? usedOf(report.disk.used, report.disk.total) : dash,
      gauge: report ? percentOf(report.disk.used, report.disk.total) : undefined,
    },
    {
      id: 'network',
      label: 'Network (in / out)',
      value: report
        ? `${formatRate(report.network.rx_rate)} / ${formatRate(report.network.tx_rate)}`
        : dash,
    },
    {
      id: 'reported',
      label: 'Last report',
      value: report ? new Date(report.at).toLocaleTimeString() : dash,
    },
  ];
}

/** /server-summary/{id}: what the agent reports, live, and the machine-wide actions. */
export default function ServerSummaryPage() {
  const { sid, server, live, online, refetchServer } = useServerPage();
  const call = useServerCall();
  const [freed, setFreed] = useState<Freed | null>(null);
  const [reading, setReading] = useState(false);
  const report = live.report ?? server.live;

  const refreshOs = async () => {
    setReading(true);
    try {
      await call('servers', 'ostz', {}, 'OS and time zone read from the server.');
      refetchServer();
    } finally {
      setReading(false);
    }
  };

  return (
    <Box>
      <PageHeader
        title={server.name}
        description={
          <Stack direction="row" spacing={1} component="span" sx={{ alignItems: 'center' }}>
            <ConnectionChip />
            <span>{server.ip4 ?? ''}</span>
          </Stack>
        }
        actions={
          <>
            <Button
              startIcon={<Refresh />}
              onClick={() => void refreshOs()}
              disabled={!online || reading}
            >
              Refresh OS info
            </Button>
            <ConfirmButton
              startIcon={<CleaningServices />}
              disabled={!online}
              title="Clean up the server?"
              content="Package caches, old logs and the systemd journal beyond a few days are removed. Running services are not touched."
              confirmLabel="Clean up"
              onConfirm={async () =>
                setFreed(await call<Freed>('servers', 'cleanup', {}, 'Cleanup finished.'))
              }
            >
              Clean up
            </ConfirmButton>
            <ConfirmButton
              color="warning"
              variant="contained"
              startIcon={<RestartAlt />}
              disabled={!online}
              title="Reboot the server?"
              content="Every web app and service on it is down until it is back, usually within a minute."
              confirmLabel="Reboot"
              onConfirm={() => call('servers', 'reboot', {}, 'The server is rebooting.')}
            >
              Reboot
            </ConfirmButton>
          </>
        }
      />
      <OfflineNotice what="Reboot, cleanup and OS refresh" />
      {freed ? <CleanupResult freed={freed} onClose={() => setFreed(null)} /> : null}
      <HostedCounts sid={sid} />
      {!report ? (
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          No report from this server yet. Figures appear as soon as its agent reports.
        </Typography>
      ) : null}
      <Grid container spacing={2}>
        {summaryFacts(server, report).map((fact) => (
          <Grid key={fact.id} size={{ xs: 12, sm: 6, md: 4 }}>
            <Fact {...fact} />
          </Grid>
        ))}
      </Grid>
    </Box>
  );
}
