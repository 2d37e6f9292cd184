import { useCallback, useState } from 'react';
import { Button, Paper, Stack, Typography } from '@mui/material';
import { useNotify } from 'ra-core';
import { errorMessage } from '../../src/generic/serverErrors';
import { type Action, type Entry, downloadFile, type useFilesApi } from './filesApi';
import { DeleteDialog, type FieldSpec, FormDialog, useFolders } from './FileDialogs';
import { archiveFormatOfName } from './names';

type Api = ReturnType<typeof useFilesApi>;
type Open = Action | 'delete' | null;

/**
 * What can be done with the ticked entries: a row of buttons (each a dialog), enabled by what
 * the selection is (one file to edit or download, one archive to extract...).
 */
export function SelectionActions({
  api,
  sid,
  appId,
  selected,
  onEdit,
  onDone,
}: {
  api: Api;
  sid: number;
  appId: number;
  selected: readonly Entry[];
  onEdit: (e: Entry) => void;
  onDone: () => void;
}) {
  const notify = useNotify();
  const [open, setOpen] = useState<Open>(null);
  const loadDirs = useCallback(() => api.dirs(), [api]);
  const dirs = useFolders(loadDirs, open === 'copy' || open === 'move');
  const one = selected.length === 1 ? selected[0]! : null;
  const paths = selected.map((e) => e.path);
  const close = () => setOpen(null);
  const run = async (action: Action, values: Record<string, string>) => {
    const answer = await api.process(action, {
      paths,
      destination: values.destination,
      name: values.name,
      mode: values.mode,
      format: values.format === 'tar.gz' ? 'tar.gz' : 'zip',
    });
    notify(`${action}: ${answer.done.join(', ')}`, { type: 'success' });
    onDone();
  };
  const dialogs: Record<Action, { title: string; fields: FieldSpec[] } | null> = {
    rename: one
      ? {
          title: `Rename ${one.name}`,
          fields: [{ name: 'name', label: 'New name', initial: one.name }],
        }
      : null,
    copy: dirs
      ? { title: 'Copy to', fields: [{ name: 'destination', label: 'Folder', options: dirs }] }
      : null,
    move: dirs
      ? { title: 'Move to', fields: [{ name: 'destination', label: 'Folder', options: dirs }] }
      : null,
    compress: {
      title: 'Compress',
      fields: [
        {
          name: 'name',
          label: 'Archive name',
          initial: `${one?.name ?? 'archive'}.zip`,
          help: 'Ends in .zip or .tar.gz, as the format',
        },
        { name: 'format', label: 'Format', options: ['zip', 'tar.gz'] },
      ],
    },
    extract: one ? { title: `Extract ${one.name}`, fields: [] } : null,
    permissions: {
      title: 'Permissions',
      fields: [
        {
          name: 'mode',
          label: 'Mode',
          initial: one ? one.mode.replace(/^0/, '') : '644',
          help: 'Octal, such as 644 for files and 755 for folders (no setuid or setgid)',
        },
      ],
    },
  };
  const buttons: [string, boolean, () => void][] = [
    ['Edit', one?.type === 'file', () => one && onEdit(one)],
    [
      'Download',
      one?.type === 'file',
      () =>
        one &&
        void downloadFile(sid, appId, one.path, one.name).catch((e: unknown) =>
          notify(errorMessage(e), { type: 'error' }),
        ),
    ],
    ['Rename', one !== null, () => setOpen('rename')],
    ['Copy', selected.length > 0, () => setOpen('copy')],
    ['Move', selected.length > 0, () => setOpen('move')],
    ['Compress', selected.length > 0, () => setOpen('compress')],
    [
      'Extract',
      one?.type === 'file' && archiveFormatOfName(one.name) !== null,
      () => setOpen('extract'),
    ],
    ['Permissions', selected.length > 0, () => setOpen('permissions')],
  ];
  const dialog = open && open !== 'delete' ? dialogs[open] : null;
  return (
    <Paper variant="outlined" sx={{ p: 1, mb: 2 }}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        <Typography variant="body2" sx={{ px: 1, minWidth: 90 }} aria-live="polite">
          {selected.length ? `${selected.length} selected` : 'None selected'}
        </Typography>
        {buttons.map(([label, enabled, click]) => (
          <Button key={label} size="small" disabled={!enabled} onClick={click}>
            {label}
          </Button>
        ))}
        <Button
          size="small"
          color="error"
          disabled={!selected.length}
          onClick={() => setOpen('delete')}
        >
          Delete
        </Button>
      </Stack>
      {open === 'delete' ? (
        <DeleteDialog
          names={selected.map((e) => e.name)}
          onClose={close}
          onDelete={async (trash) => {
            for (const p of paths) await api.remove(p, trash);
            notify(trash ? 'Moved to the trash' : 'Deleted', { type: 'success' });
            onDone();
          }}
        />
      ) : null}
      {open && dialog ? (
        <FormDialog
          title={dialog.title}
          submit={open === 'extract' ? 'Extract' : 'Apply'}
          fields={dialog.fields}
          onClose={close}
          onSubmit={(values) => run(open as Action, values)}
        />
      ) : null}
    </Paper>
  );
}
