import {
  Alert,
  Box,
  Button,
  Card,
  Chip,
  List,
  ListItemButton,
  ListItemIcon,
  ListItemText,
  Skeleton,
} from '@mui/material';
import ChevronRight from '@mui/icons-material/ChevronRight';
import DnsOutlined from '@mui/icons-material/DnsOutlined';
import { useGetList } from 'ra-core';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { Server } from '../../resources/servers';
import { CardPager } from '../../src/generic/CardPager';
import { EmptyState } from '../../src/generic/EmptyState';
import { PageHeader } from '../../src/generic/PageHeader';
import { errorMessage } from '../../src/generic/serverErrors';
import { shownName } from '../../src/pages/servers/serverName';
import { easyPhpPaths } from './links';

const PER_PAGE = 20;

/** /easyphp (main sidebar): the user's servers, each leading to its PHP extensions. */
export default function EasyPhpServersPage() {
  const [page, setPage] = useState(1);
  const { data, total, isPending, error } = useGetList<Server>(
    'servers',
    { pagination: { page, perPage: PER_PAGE }, sort: { field: 'created_at', order: 'DESC' } },
    { placeholderData: (previous) => previous },
  );
  const pages = Math.max(1, Math.ceil((total ?? 0) / PER_PAGE));
  return (
    <Box sx={{ maxWidth: 880 }}>
      <PageHeader
        title="EasyPHP"
        description="PHP extensions are switched per server and PHP version: choose the server."
      />
      {error ? (
        <Alert severity="error">{errorMessage(error, 'The servers could not be loaded.')}</Alert>
      ) : null}
      <Card variant="outlined">
        {isPending ? (
          <Box sx={{ p: 2 }}>
            <Skeleton height={48} />
            <Skeleton height={48} />
          </Box>
        ) : !data?.length ? (
          <EmptyState
            title="No servers yet"
            text="Connect a server first; its PHP extensions are switched from here."
            icon={DnsOutlined}
            action={
              <Button component={Link} to="/connect-server" variant="contained">
                Connect server
              </Button>
            }
          />
        ) : (
          <List disablePadding aria-label="Servers">
            {data.map((server, index) => (
              <ListItemButton
                key={server.id}
                component={Link}
                to={easyPhpPaths.server(server.id)}
                divider={index < data.length - 1}
              >
                <ListItemIcon>
                  <DnsOutlined />
                </ListItemIcon>
                <ListItemText
                  primary={shownName(server).name}
                  secondary={server.ip4 ?? shownName(server).id ?? 'No address yet'}
                  slotProps={{ primary: { sx: { fontWeight: 500 } } }}
                />
                <Chip
                  size="small"
                  variant="outlined"
                  color={server.connected ? 'success' : 'default'}
                  label={server.connected ? 'Online' : 'Offline'}
                  sx={{ mr: 1 }}
                />
                <ChevronRight color="action" />
              </ListItemButton>
            ))}
          </List>
        )}
      </Card>
      <CardPager pages={pages} page={page} setPage={setPage} label="Server pages" />
    </Box>
  );
}
