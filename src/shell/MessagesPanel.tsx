import NotificationsOutlined from '@mui/icons-material/NotificationsOutlined';
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
import {
  CLONE_POLL_MS,
  MESSAGES_EXPANDED,
  cloneState,
  viewToggle,
  visibleMessages,
} from './messages';

function CloneRow({ clone }: { clone: Clone }) {
  const translate = useTranslate();
  const state = cloneState(clone);
  return (
    <Box component="li" sx={{ px: 2, py: 1.25, listStyle: 'none' }} data-testid="message">
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        <Typography variant="body2" sx={{ fontWeight: 600, flex: 1 }} noWrap>
          {translate('shell.messages.clone', { name: clone.name })}
        </Typography>
        {state.kind === 'success' && (
          <Chip size="small" color="success" label={translate('shell.messages.success')} />
        )}
        {state.kind === 'failed' && (
          <Chip size="small" color="error" label={translate('shell.messages.failed')} />
        )}
        {state.kind === 'cloning' && (
          <Typography variant="caption" color="text.secondary">
            {translate('shell.messages.cloning')} {state.percent}%
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

/** Polls the clone events only while it is open (spec section 2 "Messages panel"). */
function MessageList() {
  const translate = useTranslate();
  const [expanded, setExpanded] = useState(false);
  const { data = [], isPending } = useGetList<Clone>(
    'clone-events',
    {
      pagination: { page: 1, perPage: MESSAGES_EXPANDED },
      sort: { field: 'created_at', order: 'DESC' },
    },
    { refetchInterval: CLONE_POLL_MS },
  );
  const shown = visibleMessages(data, expanded);
  const toggle = viewToggle(data.length, expanded);
  if (isPending) return <LinearProgress sx={{ m: 2 }} />;
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
          {shown.map((clone) => (
            <CloneRow key={clone.id} clone={clone} />
          ))}
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

/** `onOpen`: what else opening it loads (the server layout's activity logs, spec section 2). */
export function MessagesPanel({ onOpen }: { onOpen?: () => void }) {
  const translate = useTranslate();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const label = translate('shell.header.messages');
  return (
    <>
      <Tooltip title={label}>
        <IconButton
          onClick={(event) => {
            setAnchor(event.currentTarget);
            onOpen?.();
          }}
          aria-label={label}
          aria-haspopup="dialog"
          aria-expanded={anchor !== null}
        >
          <NotificationsOutlined />
        </IconButton>
      </Tooltip>
      <Popover
        open={anchor !== null}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
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
        {/* Mounted only while open: closing the panel unmounts the list and stops the polling. */}
        {anchor !== null && <MessageList />}
      </Popover>
    </>
  );
}
