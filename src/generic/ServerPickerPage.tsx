import {
  Alert,
  Box,
  Button,
  Card,
  Chip,
  List,
  ListItem,
  ListItemButton,
  ListItemIcon,
  ListItemText,
  Skeleton,
} from '@mui/material';
import ChevronRight from '@mui/icons-material/ChevronRight';
import DnsOutlined from '@mui/icons-material/DnsOutlined';
import { useGetList } from 'ra-core';
import { type ReactNode, useState } from 'react';
import { Link } from 'react-router-dom';
import type { Server } from '../../resources/servers';
import { shownName } from '../pages/servers/serverName';
import { CardPager } from './CardPager';
import { EmptyState } from './EmptyState';
import { PageHeader } from './PageHeader';
import { errorMessage } from './serverErrors';

const PER_PAGE = 20;

export interface ServerPickerPageProps {
  title: string;
  description: string;
  /** What the empty state says follows once a server is connected. */
  emptyText: string;
  /** Where a server leads. */
  to: (serverId: number) => string;
  /** Something of the server's shown before its status (a count). */
  extra?: (server: Server) => ReactNode;
}

/**
 * A main-sidebar page of a server-level tool (cron jobs, PHP extensions): the user's servers,
 * a page at a time, each leading to the tool's page of that server.
 */
export function ServerPickerPage({
  title,
  description,
  emptyText,
  to,
  extra,
}: ServerPickerPageProps) {
  const [page, setPage] = useState(1);
  const { data, total, isPending, error } = useGetList<Server>(
    'servers',
    { pagination: { page, perPage: PER_PAGE }, sort: { field: 'created_at', order: 'DESC' } },
    { placeholderData: (previous) => previous },
  );
  const pages = Math.max(1, Math.ceil((total ?? 0) / PER_PAGE));
  return (
    <Box sx={{ maxWidth: 880 }}>
      <PageHeader title={title} description={description} />
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
            text={emptyText}
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
              <ListItem key={server.id} disablePadding divider={index < data.length - 1}>
                <ListItemButton component={Link} to={to(server.id)}>
                  <ListItemIcon>
                    <DnsOutlined />
                  </ListItemIcon>
                  <ListItemText
                    primary={shownName(server).name}
                    secondary={server.ip4 ?? shownName(server).id ?? 'No address yet'}
                    slotProps={{ primary: { sx: { fontWeight: 500 } } }}
                  />
                  {extra?.(server)}
                  <Chip
                    size="small"
                    variant="outlined"
                    color={server.connected ? 'success' : 'default'}
                    label={server.connected ? 'Online' : 'Offline'}
                    sx={{ mr: 1 }}
                  />
                  <ChevronRight color="action" />
                </ListItemButton>
              </ListItem>
            ))}
          </List>
        )}
      </Card>
      <CardPager pages={pages} page={page} setPage={setPage} label="Server pages" />
    </Box>
  );
}
