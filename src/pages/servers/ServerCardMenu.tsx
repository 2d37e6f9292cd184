import { useState } from 'react';
import { IconButton, ListItemIcon, ListItemText, Menu, MenuItem } from '@mui/material';
import MoreVert from '@mui/icons-material/MoreVert';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import SwapHoriz from '@mui/icons-material/SwapHoriz';
import TerminalOutlined from '@mui/icons-material/TerminalOutlined';
import { Link } from 'react-router-dom';
import type { Server } from '../../../resources/servers';
import { shownName } from './serverName';

/** The card's less frequent actions: install page, transfer (own servers only), remove. */
export function ServerCardMenu({
  server,
  pending,
  onTransfer,
}: {
  server: Server;
  pending: boolean;
  onTransfer: () => void;
}) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const close = () => setAnchor(null);
  return (
    <>
      <IconButton
        size="small"
        aria-label={`Actions for ${shownName(server).name}`}
        aria-haspopup="menu"
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        <MoreVert fontSize="small" />
      </IconButton>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={close}>
        {!pending && !server.connected ? (
          <MenuItem component={Link} to={`/server-install/${server.id}`} onClick={close}>
            <ListItemIcon>
              <TerminalOutlined fontSize="small" />
            </ListItemIcon>
            <ListItemText>Install status</ListItemText>
          </MenuItem>
        ) : null}
        {!server.is_shared ? (
          <MenuItem
            onClick={() => {
              close();
              onTransfer();
            }}
          >
            <ListItemIcon>
              <SwapHoriz fontSize="small" />
            </ListItemIcon>
            <ListItemText>Transfer to another user</ListItemText>
          </MenuItem>
        ) : null}
        {!server.is_shared ? (
          <MenuItem component={Link} to={`/remove-server/${server.id}`} onClick={close}>
            <ListItemIcon>
              <DeleteOutline fontSize="small" color="error" />
            </ListItemIcon>
            <ListItemText slotProps={{ primary: { color: 'error' } }}>Remove server</ListItemText>
          </MenuItem>
        ) : null}
      </Menu>
    </>
  );
}
