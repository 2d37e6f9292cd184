import NotificationsOutlined from '@mui/icons-material/NotificationsOutlined';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Popover from '@mui/material/Popover';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useGetList, useTranslate } from 'ra-core';
import { useState } from 'react';
import type { Clone } from '../../resources/clone-events';
import { useAlertPush } from '../live/alertPush';
import { useTaskPush } from '../live/taskPush';
import {
  type ActivityLine,
  type AlertLine,
  CLONE_POLL_MS,
  clonePollMs,
  MESSAGES_EXPANDED,
  cloneState,
  panelMessages,
  viewToggle,
  visibleMessages,
} from './messages';
import { unreadBadge } from './unreadCount';
import { useUnreadMessages } from './unreadMessages';

/** What a running task of each kind is doing, beside its percent. */
const RUNNING_WORDS = {
  clone: 'shell.messages.cloning',
  install: 'shell.messages.installing',
  gitdeploy: 'shell.messages.deploying',
  certificate: 'shell.messages.issuing',
  backup: 'shell.messages.backingUp',
  restore: 'shell.messages.restoring',
  script: 'shell.messages.runningScript',
} as const satisfies Record<Clone['kind'], string>;
const ACTIVITY_COLORS = { pending: 'info', done: 'success', failed: 'error' } as const;
const ACTIVITY_LABELS = { pending: 'Pending', done: 'Done', failed: 'Failed' } as const;

/** A line of the server's activity log (server layout only). */
function ActivityRow({ line }: { line: ActivityLine }) {
  return (
    <Box component="li" sx={{ px: 2, py: 1.25, listStyle: 'none' }} data-testid="message">
      <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 1 }}>
        <Typography variant="body2" sx={{ fontWeight: 600, flex: 1, minWidth: 0 }}>
          {line.message}
        </Typography>
        <Chip
          size="small"
          color={ACTIVITY_COLORS[line.status]}
          variant={line.status === 'pending' ? 'outlined' : 'filled'}
          label={ACTIVITY_LABELS[line.status]}
        />
      </Box>
      {line.error ? (
        <Typography variant="caption" color="error" component="p">
          {line.error}
        </Typography>
      ) : null}
      <Typography variant="caption" color="text.secondary">
        {new Date(line.created_at).toLocaleString()}
      </Typography>
    </Box>
  );
}

/** One of the user's alerts: opened (red) or recovered (green), with what it is about. */
function AlertRow({ alert }: { alert: AlertLine }) {
  const translate = useTranslate();
  const kind = translate(`shell.messages.alertKinds.${alert.kind}`, { _: alert.kind });
  const title = `${kind}: ${alert.subject}`;
  const open = alert.state === 'open';
  return (
    <Box component="li" sx={{ px: 2, py: 1.25, listStyle: 'none' }} data-testid="message">
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        <Typography variant="body2" sx={{ fontWeight: 600, flex: 1 }} noWrap title={title}>
          {translate(open ? 'shell.messages.alertOpened' : 'shell.messages.alertClosed', {
            title,
          })}
        </Typography>
        <Chip
          size="small"
          color={open ? 'error' : 'success'}
          variant={open ? 'filled' : 'outlined'}
          label={translate(open ? 'shell.messages.alertOpen' : 'shell.messages.alertClosedState')}
        />
      </Box>
      <Typography variant="caption" color="text.secondary">
        {new Date(alert.closed_at ?? alert.opened_at).toLocaleString()}
      </Typography>
    </Box>
  );
}

function CloneRow({ clone }: { clone: Clone }) {
  const translate = useTranslate();
  const state = cloneState(clone);
  return (
    <Box component="li" sx={{ px: 2, py: 1.25, listStyle: 'none' }} data-testid="message">
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        <Typography variant="body2" sx={{ fontWeight: 600, flex: 1 }} noWrap>
          {translate(`shell.messages.${clone.kind}`, { name: clone.name })}
        </Typography>
        {state.kind === 'success' && (
          <Chip size="small" color="success" label={translate('shell.messages.success')} />
        )}
        {state.kind === 'failed' && (
          <Chip size="small" color="error" label={translate('shell.messages.failed')} />
        )}
        {state.kind === 'cloning' && (
          <Typography variant="caption" color="text.secondary">
            {translate(RUNNING_WORDS[clone.kind])} {state.percent}%
          </Typography>
        )}
      </Box>
      {state.kind === 'cloning' && (
        <LinearProgress
          variant="determinate"
          value={state.percent}
          sx={{ mt: 1, height: 6, borderRadius: 3 }}
          aria-label={`${clone.name}: ${state.percent}%`}
        />
      )}
      <Typography variant="caption" color="text.secondary">
        {new Date(clone.created_at).toLocaleString()}
      </Typography>
    </Box>
  );
}

/**
 * Follows the clone events only while it is open (spec section 2 "Messages panel"): pushed
 * live over the socket (issue 11), else polled every second; in the server layout (`serverId`)
 * it also loads that server's activity log and shows its lines among them.
 */
function MessageList({ serverId }: { serverId?: number }) {
  const translate = useTranslate();
  const [expanded, setExpanded] = useState(false);
  const pushing = useTaskPush();
  useAlertPush();
  const alerts = useGetList<AlertLine>('alerts', {
    pagination: { page: 1, perPage: MESSAGES_EXPANDED },
    sort: { field: 'opened_at', order: 'DESC' },
    filter: {},
  });
  const { data = [], isPending } = useGetList<Clone>(
    'clone-events',
    {
      pagination: { page: 1, perPage: MESSAGES_EXPANDED },
      sort: { field: 'created_at', order: 'DESC' },
    },
    { refetchInterval: clonePollMs(pushing) },
  );
  const activity = useGetList<ActivityLine & { id: number }>(
    'server-activity',
    {
      meta: { sid: serverId },
      pagination: { page: 1, perPage: MESSAGES_EXPANDED },
      sort: { field: 'created_at', order: 'DESC' },
      filter: {},
    },
    {
      enabled: serverId !== undefined,
      // A running op's line is pending: look again until it settles.
      refetchInterval: (query) =>
        query.state.data?.data.some((line) => line.status === 'pending')
          ? CLONE_POLL_MS * 3
          : false,
    },
  );
  const messages = panelMessages(
    data,
    serverId !== undefined ? (activity.data ?? []) : [],
    alerts.data ?? [],
  );
  const shown = visibleMessages(messages, expanded);
  const toggle = viewToggle(messages.length, expanded);
  if (isPending || (serverId !== undefined && activity.isPending)) {
    return <LinearProgress sx={{ m: 2 }} aria-label={translate('shell.loading')} />;
  }
  return (
    <>
      {shown.length === 0 ? (
        <Typography
          variant="body2"
          color="text.secondary"
          sx={{ px: 2, py: 3, textAlign: 'center' }}
        >
          {translate('shell.messages.empty')}
        </Typography>
      ) : (
        <Box component="ul" sx={{ m: 0, p: 0, maxHeight: 420, overflowY: 'auto' }}>
          {shown.map((message) =>
            message.kind === 'clone' ? (
              <CloneRow key={message.key} clone={message.clone} />
            ) : message.kind === 'alert' ? (
              <AlertRow key={message.key} alert={message.alert} />
            ) : (
              <ActivityRow key={message.key} line={message.activity} />
            ),
          )}
        </Box>
      )}
      {toggle && (
        <>
          <Divider />
          <Button
            fullWidth
            onClick={() => setExpanded(toggle === 'more')}
            sx={{ borderRadius: 0, py: 1 }}
          >
            {translate(toggle === 'more' ? 'shell.messages.viewMore' : 'shell.messages.viewLess')}
          </Button>
        </>
      )}
    </>
  );
}

/**
 * `serverId`: in the server layout, the server whose activity logs the panel also loads and
 * shows (spec section 2); `onOpen`: what else opening it refreshes.
 */
export function MessagesPanel({ serverId, onOpen }: { serverId?: number; onOpen?: () => void }) {
  const translate = useTranslate();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const label = translate('shell.header.messages');
  const unread = useUnreadMessages();
  const badge = unreadBadge(unread.count);
  return (
    <>
      <Tooltip title={label}>
        <IconButton
          onClick={(event) => {
            setAnchor(event.currentTarget);
            unread.markSeen();
            onOpen?.();
          }}
          aria-label={label}
          aria-haspopup="dialog"
          aria-expanded={anchor !== null}
        >
          <Badge
            badgeContent={badge}
            color="error"
            invisible={badge === null}
            data-testid="messages-unread"
          >
            <NotificationsOutlined />
          </Badge>
        </IconButton>
      </Tooltip>
      <Popover
        open={anchor !== null}
        anchorEl={anchor}
        onClose={() => {
          // What moved while it was open has been seen.
          unread.markSeen();
          setAnchor(null);
        }}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{
          paper: {
            sx: { width: 360, maxWidth: 'calc(100vw - 24px)', mt: 1 },
            role: 'dialog',
            'aria-label': label,
          },
        }}
      >
        <Typography variant="subtitle2" sx={{ px: 2, py: 1.5, fontWeight: 700 }}>
          {translate('shell.messages.title')}
        </Typography>
        <Divider />
        {/* Mounted only while open: closing the panel unmounts the list, its pushes and polls. */}
        {anchor !== null && <MessageList serverId={serverId} />}
      </Popover>
    </>
  );
}
