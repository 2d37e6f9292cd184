import { useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  LinearProgress,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNotify } from 'ra-core';
import { Confirm } from 'ra-ui-materialui';
import type { z } from 'zod';
import { errorMessage } from '../../src/generic/serverErrors';
import { useStackdeckData } from '../../src/hooks';
import type { phpAvailable } from './schemas';

type Available = z.infer<typeof phpAvailable> & { from: string | null };

/**
 * The PHP versions a server has and those its package sources offer (apt's own view), each
 * with where it comes from; one not installed is installed after a confirmation. Debian 12
 * carries 8.2 only: the others need the Sury repository set up on the server, and the card says
 * so rather than offering what apt cannot install.
 */
export function PhpVersionsCard({ sid, online }: { sid: number | string; online: boolean }) {
  const dp = useStackdeckData();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState<Available | null>(null);
  const [installing, setInstalling] = useState<string | null>(null);
  const key = ['php-available', sid];
  const available = useQuery({
    queryKey: key,
    queryFn: ({ signal }) =>
      dp.action<{ data: Available[] }>('webstacks', 'phpAvailable', { params: { sid }, signal }),
    enabled: online,
    retry: false,
  });
  const rows = available.data?.data ?? [];

  const install = async (row: Available) => {
    setAsking(null);
    setInstalling(row.version);
    try {
      await dp.action('webstacks', 'phpInstall', {
        params: { sid },
        body: { version: row.version },
      });
      notify(`PHP ${row.version} is installed and its FPM runs.`, { type: 'success' });
      await queryClient.invalidateQueries({ queryKey: key });
      await queryClient.invalidateQueries({ queryKey: ['easyphp', 'versions', sid] });
      await queryClient.invalidateQueries({ queryKey: ['offered', 'webstacks', 'php'] });
    } catch (error) {
      notify(errorMessage(error), { type: 'error' });
    } finally {
      setInstalling(null);
    }
  };

  if (!online) return null;
  return (
    <Card variant="outlined" sx={{ mt: 3 }}>
      {available.isFetching || installing ? (
        <LinearProgress
          aria-label={installing ? `Installing PHP ${installing}` : 'Reading PHP versions'}
        />
      ) : null}
      <CardContent>
        <Typography variant="h6" component="h2">
          PHP versions
        </Typography>
        <Typography variant="body2" color="text.secondary">
          What the server has, and what its package sources offer. Debian 12 carries PHP 8.2; other
          versions come from the Sury repository (packages.sury.org/php) once it is set up on the
          server.
        </Typography>
      </CardContent>
      {available.error ? (
        <Alert severity="error" sx={{ mx: 2, mb: 2 }}>
          {errorMessage(available.error, 'The PHP versions could not be read.')}
        </Alert>
      ) : null}
      {available.isSuccess && rows.length === 0 ? (
        <Typography sx={{ px: 2, pb: 2 }}>No package source of the server offers PHP.</Typography>
      ) : rows.length > 0 ? (
        <Table aria-label="PHP versions" size="small">
          <TableHead>
            <TableRow>
              <TableCell>Version</TableCell>
              <TableCell>From</TableCell>
              <TableCell align="right">On the server</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((row) => (
              <TableRow key={row.version} data-testid={`php-${row.version}`}>
                <TableCell>PHP {row.version}</TableCell>
                <TableCell>
                  {row.from ?? 'installed outside the package manager'}
                  {row.candidate ? (
                    <Box
                      component="span"
                      sx={{ ml: 1, color: 'text.secondary', fontFamily: 'monospace', fontSize: 12 }}
                    >
                      {row.candidate}
                    </Box>
                  ) : null}
                </TableCell>
                <TableCell align="right">
                  {row.installed ? (
                    <Chip size="small" color="success" label="Installed" />
                  ) : (
                    <Button
                      size="small"
                      variant="outlined"
                      disabled={installing !== null}
                      onClick={() => setAsking(row)}
                    >
                      Install PHP {row.version}
                    </Button>
                  )}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      ) : null}
      <Confirm
        isOpen={asking !== null}
        title={`Install PHP ${asking?.version ?? ''}?`}
        content={`apt-get installs php${asking?.version ?? ''}-fpm and php${asking?.version ?? ''}-cli from ${asking?.from ?? 'the server\u2019s package sources'} and starts its FPM; it can take a few minutes. Extensions are switched on afterwards, one by one.`}
        confirm="Install"
        onConfirm={() => asking && void install(asking)}
        onClose={() => setAsking(null)}
      />
    </Card>
  );
}
