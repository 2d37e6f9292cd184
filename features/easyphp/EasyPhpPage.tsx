import { useEffect, useState } from 'react';
import {
  Alert,
  Box,
  Card,
  Chip,
  FormControl,
  InputLabel,
  LinearProgress,
  MenuItem,
  Select,
  Stack,
  Switch,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Tooltip,
  Typography,
} from '@mui/material';
import ExtensionOutlined from '@mui/icons-material/ExtensionOutlined';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNotify } from 'ra-core';
import { Confirm } from 'ra-ui-materialui';
import type { z } from 'zod';
import type { phpRuntime } from '../webapps/api';
import { PhpVersionsCard } from '../webapps/pagesApi';
import { EmptyState } from '../../src/generic/EmptyState';
import { PageHeader } from '../../src/generic/PageHeader';
import { errorMessage } from '../../src/generic/serverErrors';
import { useStackdeckData } from '../../src/hooks';
import { OfflineNotice } from '../../src/pages/server/OfflineNotice';
import { useServerPage } from '../../src/pages/server/ServerContext';
import { shownName } from '../../src/pages/servers/serverName';
import type { ExtensionState } from './resource';

type Runtime = z.infer<typeof phpRuntime>;
type Extensions = { version: string; data: ExtensionState[] };

const mono = { fontFamily: 'monospace', fontSize: 13 } as const;

/** One extension's switch: on at once, off after a confirmation (apps may need it). */
function ExtensionSwitch({
  ext,
  version,
  disabled,
  onChange,
}: {
  ext: ExtensionState;
  version: string;
  disabled: boolean;
  onChange: (ext: ExtensionState, on: boolean) => Promise<void>;
}) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const change = async (on: boolean) => {
    setBusy(true);
    try {
      await onChange(ext, on);
    } finally {
      setBusy(false);
      setAsking(false);
    }
  };
  const why = !ext.available
    ? `Not installed for PHP ${version}${ext.package ? `: the ${ext.package} package provides it` : ''}`
    : '';
  return (
    <>
      <Tooltip title={why}>
        <span>
          <Switch
            checked={ext.enabled}
            disabled={disabled || busy || !ext.available}
            onChange={(_, on) => (on ? void change(true) : setAsking(true))}
            slotProps={{ input: { 'aria-label': `${ext.label} for PHP ${version}` } }}
          />
        </span>
      </Tooltip>
      <Confirm
        isOpen={asking}
        loading={busy}
        title={`Disable ${ext.label}?`}
        content={`PHP-FPM ${version} stops loading ${ext.name} after a reload: apps of this server on PHP ${version} that use it will fail until it is enabled again.`}
        confirm="Disable"
        confirmColor="warning"
        onConfirm={() => void change(false)}
        onClose={() => setAsking(false)}
      />
    </>
  );
}

/** /easy-php/{id}: the PHP extensions of one of the server's PHP versions, switched for PHP-FPM. */
export default function EasyPhpPage() {
  const { sid, online, server } = useServerPage();
  const dp = useStackdeckData();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [chosen, setChosen] = useState<string | null>(null);

  const versions = useQuery({
    queryKey: ['easyphp', 'versions', sid],
    queryFn: ({ signal }) =>
      dp.action<{ data: Runtime[] }>('easyphp', 'versions', { params: { sid }, signal }),
    enabled: online,
    retry: false,
  });
  const runtimes = versions.data?.data ?? [];
  // The newest version first, until the user picks one.
  const version = chosen ?? runtimes.at(-1)?.version ?? null;
  useEffect(() => {
    if (chosen && runtimes.length && !runtimes.some((r) => r.version === chosen)) setChosen(null);
  }, [chosen, runtimes]);

  const key = ['easyphp', 'extensions', sid, version];
  const extensions = useQuery({
    queryKey: key,
    queryFn: ({ signal }) =>
      dp.action<Extensions>('easyphp', 'extensions', {
        params: { sid, version },
        signal,
      }),
    enabled: online && version !== null,
    retry: false,
  });

  const toggle = async (ext: ExtensionState, on: boolean) => {
    try {
      const next = await dp.action<ExtensionState>('easyphp', 'toggle', {
        params: { sid, version },
        query: on ? { enable: ext.id } : { disable: ext.id },
      });
      queryClient.setQueryData<Extensions>(key, (old) =>
        old ? { ...old, data: old.data.map((e) => (e.id === next.id ? next : e)) } : old,
      );
      notify(`${ext.label} ${on ? 'enabled' : 'disabled'} for PHP-FPM ${version ?? ''}.`, {
        type: 'success',
      });
    } catch (error) {
      notify(errorMessage(error), { type: 'error' });
    }
  };

  const error = versions.error ?? extensions.error;
  const rows = extensions.data?.data ?? [];
  const name = shownName(server).name;
  return (
    <Box>
      <PageHeader
        title="EasyPHP"
        description={`PHP extensions of ${name}, switched on or off for PHP-FPM (the web apps' PHP); the command line keeps its own.`}
        actions={
          runtimes.length > 0 ? (
            <FormControl size="small" sx={{ minWidth: 160 }}>
              <InputLabel id="php-version-label">PHP version</InputLabel>
              <Select
                labelId="php-version-label"
                label="PHP version"
                value={version ?? ''}
                onChange={(e) => setChosen(String(e.target.value))}
              >
                {runtimes.map((r) => (
                  <MenuItem key={r.version} value={r.version}>
                    PHP {r.version}
                    {r.running ? '' : ' (FPM stopped)'}
                  </MenuItem>
                ))}
              </Select>
            </FormControl>
          ) : null
        }
      />
      <OfflineNotice what="Reading and switching PHP extensions" />
      {error ? (
        <Alert severity="error" sx={{ mb: 2 }}>
          {errorMessage(error, 'The PHP extensions could not be read.')}
        </Alert>
      ) : null}
      {/* Offline with nothing read yet: the notice above says it all. */}
      {!online && !extensions.data ? null : (
        <Card variant="outlined">
          {online && (versions.isFetching || extensions.isFetching) ? (
            <LinearProgress aria-label="Reading PHP extensions" />
          ) : null}
          {online && versions.isSuccess && runtimes.length === 0 ? (
            <EmptyState
              title="No PHP on this server"
              text={`${name} has no PHP-FPM installed: there are no extensions to switch.`}
              icon={ExtensionOutlined}
            />
          ) : extensions.isSuccess && rows.length === 0 ? (
            <EmptyState
              title="No extensions offered"
              text={`The panel's catalogue offers no extension for PHP ${version}.`}
              icon={ExtensionOutlined}
            />
          ) : (
            <Table aria-label="PHP extensions">
              <TableHead>
                <TableRow>
                  <TableCell>Extension</TableCell>
                  <TableCell>On the server</TableCell>
                  <TableCell align="right">PHP-FPM</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {rows.map((ext) => (
                  <TableRow key={ext.id} data-testid={`extension-${ext.name}`}>
                    <TableCell>
                      <Typography variant="body2" sx={{ fontWeight: 500 }}>
                        {ext.label}{' '}
                        <Box component="span" sx={{ ...mono, color: 'text.secondary' }}>
                          {ext.name}
                        </Box>
                      </Typography>
                      <Typography variant="caption" color="text.secondary">
                        {ext.description}
                      </Typography>
                    </TableCell>
                    <TableCell>
                      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                        {ext.available ? (
                          <Chip
                            size="small"
                            color={ext.enabled ? 'success' : 'default'}
                            label={ext.enabled ? 'Enabled' : 'Disabled'}
                          />
                        ) : (
                          <Chip size="small" variant="outlined" label="Not installed" />
                        )}
                        {!ext.available && ext.package ? (
                          <Typography variant="caption" sx={mono}>
                            {ext.package}
                          </Typography>
                        ) : null}
                      </Stack>
                    </TableCell>
                    <TableCell align="right">
                      <ExtensionSwitch
                        ext={ext}
                        version={version ?? ''}
                        disabled={!online}
                        onChange={toggle}
                      />
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </Card>
      )}
      <PhpVersionsCard sid={sid} online={online} />
    </Box>
  );
}
