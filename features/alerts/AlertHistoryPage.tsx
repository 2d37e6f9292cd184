import { Box, Button, Chip } from '@mui/material';
import NotificationsNoneOutlined from '@mui/icons-material/NotificationsNoneOutlined';
import TuneOutlined from '@mui/icons-material/TuneOutlined';
import type { RaRecord } from 'ra-core';
import { useTranslate } from 'ra-core';
import { Link } from 'react-router-dom';
import { GenericList } from '../../src/generic/GenericList';
import { useAlertPush } from '../../src/live/alertPush';
import { ALERT_KINDS, type AlertKind, alerts } from './resource';

const when = (value: unknown) =>
  typeof value === 'string' ? new Date(value).toLocaleString() : '—';

/** /alerts: what the panel told the user, newest first, pushed live as alerts open and close. */
export default function AlertHistoryPage() {
  const translate = useTranslate();
  useAlertPush();
  const kind = (k: string) => translate(`shell.messages.alertKinds.${k}`, { _: k });
  const settings = (
    <Button component={Link} to="/alert-settings" startIcon={<TuneOutlined />}>
      Alert settings
    </Button>
  );
  return (
    <Box>
      <GenericList
        resource={alerts}
        title="Alerts"
        description="Servers offline, disks and memory above your thresholds, certificates near their end, failed deploys and installs: each alert once when it opens and once when it recovers."
        actions={settings}
        sort={{ field: 'opened_at', order: 'DESC' }}
        filterChoiceLabels={{
          kind: Object.fromEntries(ALERT_KINDS.map((k: AlertKind) => [k, kind(k)])),
          state: {
            open: translate('shell.messages.alertOpen'),
            closed: translate('shell.messages.alertClosedState'),
          },
        }}
        render={{
          kind: (r: RaRecord) => kind(String(r.kind)),
          state: (r: RaRecord) =>
            r.state === 'open' ? (
              <Chip size="small" color="error" label={translate('shell.messages.alertOpen')} />
            ) : (
              <Chip
                size="small"
                color="success"
                variant="outlined"
                label={translate('shell.messages.alertClosedState')}
              />
            ),
          opened_at: (r: RaRecord) => when(r.opened_at),
          closed_at: (r: RaRecord) => when(r.closed_at),
        }}
        empty={{
          title: 'No alerts yet',
          text: 'When a server goes offline, a disk fills up or a deploy fails, you will find it here.',
          icon: NotificationsNoneOutlined,
          action: settings,
        }}
      />
    </Box>
  );
}
