import { useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Card,
  Stack,
  Tab,
  Tabs,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from '@mui/material';
import Refresh from '@mui/icons-material/Refresh';
import { useQuery } from '@tanstack/react-query';
import { type RaRecord, useGetOne } from 'ra-core';
import { useParams } from 'react-router-dom';
import type { z } from 'zod';
import { EmptyState } from '../../src/generic/EmptyState';
import { PageHeader } from '../../src/generic/PageHeader';
import { errorMessage } from '../../src/generic/serverErrors';
import { useStackdeckData } from '../../src/hooks';
import { usePublishWebApp } from '../../src/shell/WebAppInfo';
import type { logPage } from './resource';

type Page = z.infer<typeof logPage>;

/**
 * /web-server-log/{serverId}/{webAppId}: the app's access and error logs, 100 lines a page from
 * the newest; Older and Newer move a page (the spec's scroll_count).
 */
export default function WebServerLogPage() {
  const params = useParams();
  const sid = Number(params.serverId);
  const appId = Number(params.webAppId);
  const dp = useStackdeckData();
  const { data: app } = useGetOne<RaRecord>('webstacks', { id: appId, meta: { sid } });
  usePublishWebApp(app as never);
  const [type, setType] = useState<'access' | 'error'>('access');
  const [server, setServer] = useState<'nginx' | 'apache'>('nginx');
  const [page, setPage] = useState(1);
  const query = useQuery({
    queryKey: ['weblogs', sid, appId, server, type, page],
    queryFn: ({ signal }) =>
      dp.action<Page>('weblogs', server, {
        params: { sid },
        query: { wsid: appId, scroll_count: page, type },
        signal,
      }),
    retry: false,
  });
  const hybrid = app?.stack_type === 'apache/nginx';
  const data = query.data;
  return (
    <>
      <PageHeader
        title="Web server logs"
        description={app ? `What the web server wrote about ${String(app.name)}.` : undefined}
        actions={
          <Button startIcon={<Refresh />} onClick={() => void query.refetch()}>
            Refresh
          </Button>
        }
      />
      <Stack direction="row" spacing={2} sx={{ mb: 2, alignItems: 'center' }}>
        <Tabs
          value={type}
          onChange={(_, value: 'access' | 'error') => {
            setType(value);
            setPage(1);
          }}
        >
          <Tab value="access" label="Access log" />
          <Tab value="error" label="Error log" />
        </Tabs>
        {hybrid ? (
          <ToggleButtonGroup
            size="small"
            exclusive
            value={server}
            onChange={(_, value: 'nginx' | 'apache' | null) => {
              if (value) {
                setServer(value);
                setPage(1);
              }
            }}
          >
            <ToggleButton value="nginx">NGINX</ToggleButton>
            <ToggleButton value="apache">Apache</ToggleButton>
          </ToggleButtonGroup>
        ) : null}
      </Stack>
      {query.error ? (
        <Alert severity="error" role="alert">
          {errorMessage(query.error, 'The log could not be read.')}
        </Alert>
      ) : data && data.lines.length === 0 && page === 1 ? (
        <EmptyState title="No lines yet" text="The web server has written nothing here yet." />
      ) : data ? (
        <>
          <Card variant="outlined">
            <Box
              component="pre"
              aria-label="Log lines"
              sx={{ m: 0, p: 2, fontSize: 12, overflowX: 'auto', whiteSpace: 'pre' }}
            >
              {data.lines.join('\n')}
            </Box>
          </Card>
          <Stack direction="row" spacing={2} sx={{ mt: 2, alignItems: 'center' }}>
            <Button disabled={!data.has_more} onClick={() => setPage((p) => p + 1)}>
              Older
            </Button>
            <Typography>
              Page {page} of {data.estimated ? 'about ' : ''}
              {data.total_pages}
            </Typography>
            <Button disabled={page === 1} onClick={() => setPage((p) => p - 1)}>
              Newer
            </Button>
          </Stack>
        </>
      ) : null}
    </>
  );
}
