import { useState } from 'react';
import {
  Alert,
  Button,
  Card,
  Chip,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useNotify } from 'ra-core';
import { FilePickButton, base64Of } from '../../src/generic/FilePickButton';
import { errorMessage } from '../../src/generic/serverErrors';
import { ConfirmDialog } from './ConfirmDialog';
import { MAX_PLUGIN_ZIP, type WpPlugin } from './names';
import { useWpCall } from './useWpCall';

/**
 * The site's plugins: activate, deactivate, delete an inactive one, install or update one from
 * a zip. Updates from wordpress.org's catalogue need the internet, which the servers lack.
 */
export function PluginsTab() {
  const { sid, appId, call } = useWpCall();
  const notify = useNotify();
  const query = useQuery({
    queryKey: ['wpmanager', 'plugins', sid, appId],
    queryFn: () => call<{ plugins: WpPlugin[] }>('plugins'),
  });
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<WpPlugin | null>(null);
  if (query.error)
    return <Alert severity="error">{errorMessage(query.error, 'WordPress did not answer.')}</Alert>;
  if (!query.data) return null;

  const run = async (what: () => Promise<unknown>, done: string) => {
    setBusy(true);
    setProblem(null);
    try {
      await what();
      notify(done, { type: 'success' });
      await query.refetch();
    } catch (e) {
      setProblem(errorMessage(e, 'WordPress did not do it.'));
    } finally {
      setBusy(false);
    }
  };
  const upload = async (file: File) => {
    if (file.size > MAX_PLUGIN_ZIP) {
      setProblem('A plugin’s zip may hold 16 MB at most.');
      return;
    }
    await run(
      async () =>
        call('uploadPlugin', { body: { file_name: file.name, zip: await base64Of(file) } }),
      `The plugin from ${file.name} is installed.`,
    );
  };
  const switchTo = (p: WpPlugin, action: 'activate' | 'deactivate') =>
    run(
      () => call('switchPlugin', { query: { plugin: p.plugin, action } }),
      `${p.name} is ${action === 'activate' ? 'active' : 'inactive'}.`,
    );
  return (
    <>
      {problem ? (
        <Alert severity="error" sx={{ mb: 2 }} role="alert">
          {problem}
        </Alert>
      ) : null}
      <Stack direction="row" spacing={2} sx={{ mb: 2, alignItems: 'center' }}>
        <FilePickButton
          variant="contained"
          disabled={busy}
          accept=".zip,application/zip"
          label="Plugin zip"
          onPick={(file) => void upload(file)}
        >
          Upload plugin (.zip)
        </FilePickButton>
        <Typography variant="body2" color="text.secondary">
          A zip of a newer version updates the plugin. Updates from wordpress.org need the internet,
          which this server has no access to: upload the plugin’s zip instead.
        </Typography>
      </Stack>
      <Card variant="outlined">
        <Table size="small" aria-label="WordPress plugins">
          <TableHead>
            <TableRow>
              <TableCell>Plugin</TableCell>
              <TableCell>Version</TableCell>
              <TableCell>State</TableCell>
              <TableCell />
            </TableRow>
          </TableHead>
          <TableBody>
            {query.data.plugins.map((p) => (
              <TableRow key={p.plugin}>
                <TableCell>
                  <Typography>{p.name}</Typography>
                  <Typography variant="body2" color="text.secondary">
                    {p.description}
                  </Typography>
                </TableCell>
                <TableCell>{p.version}</TableCell>
                <TableCell>
                  <Chip
                    size="small"
                    color={p.active ? 'success' : 'default'}
                    label={p.active ? 'Active' : 'Inactive'}
                  />
                </TableCell>
                <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                  <Button
                    size="small"
                    disabled={busy}
                    aria-label={`${p.active ? 'Deactivate' : 'Activate'} ${p.name}`}
                    onClick={() => void switchTo(p, p.active ? 'deactivate' : 'activate')}
                  >
                    {p.active ? 'Deactivate' : 'Activate'}
                  </Button>
                  <Button
                    size="small"
                    color="error"
                    disabled={busy || p.active}
                    aria-label={`Delete ${p.name}`}
                    onClick={() => setDeleting(p)}
                  >
                    Delete
                  </Button>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Card>
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete ${deleting?.name ?? ''}?`}
        text="Its files are removed from the site."
        confirm="Delete"
        onClose={() => setDeleting(null)}
        onConfirm={() => {
          const p = deleting;
          setDeleting(null);
          if (p)
            void run(
              () => call('deletePlugin', { query: { plugin: p.plugin } }),
              `${p.name} was deleted.`,
            );
        }}
      />
    </>
  );
}
