import { useCallback, useRef, useState } from 'react';
import { Alert, Breadcrumbs, Button, Card, Link, Stack, TablePagination } from '@mui/material';
import CreateNewFolderOutlined from '@mui/icons-material/CreateNewFolderOutlined';
import NoteAddOutlined from '@mui/icons-material/NoteAddOutlined';
import Refresh from '@mui/icons-material/Refresh';
import UploadFile from '@mui/icons-material/UploadFile';
import { useQuery } from '@tanstack/react-query';
import { type RaRecord, useGetOne, useNotify } from 'ra-core';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { EmptyState } from '../../src/generic/EmptyState';
import { PageHeader } from '../../src/generic/PageHeader';
import { errorMessage } from '../../src/generic/serverErrors';
import { usePublishWebApp } from '../../src/shell/WebAppInfo';
import { type Entry, fileToBase64, useFilesApi } from './filesApi';
import { FileTable } from './FileTable';
import { SelectionActions } from './SelectionActions';
import { FormDialog } from './FileDialogs';
import { DEFAULT_PER_PAGE, MAX_UPLOAD_BYTES, joinPath, normalizePath } from './names';

/**
 * /file-manager/{serverId}/{webAppId}?path=: a folder of the app, a page at a time, as the
 * app's user sees it; toolbar for new files, folders and uploads, actions on the selection.
 */
export default function FileManagerPage() {
  const params = useParams();
  const sid = Number(params.serverId);
  const appId = Number(params.webAppId);
  const [search, setSearch] = useSearchParams();
  const path = normalizePath(search.get('path') ?? '/');
  const navigate = useNavigate();
  const notify = useNotify();
  const api = useFilesApi(sid, appId);
  const { data: app } = useGetOne<RaRecord>('webstacks', { id: appId, meta: { sid } });
  usePublishWebApp(app as never);
  const [page, setPage] = useState(0);
  const [perPage, setPerPage] = useState(DEFAULT_PER_PAGE);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [creating, setCreating] = useState<'file' | 'folder' | null>(null);
  const upload = useRef<HTMLInputElement>(null);
  const query = useQuery({
    queryKey: ['files', sid, appId, path, page, perPage],
    queryFn: ({ signal }) => api.list(path, page + 1, perPage, signal),
    retry: false,
  });
  const { refetch } = query;
  const refresh = useCallback(() => {
    setSelected(new Set());
    void refetch();
  }, [refetch]);
  const go = (to: string) => {
    setPage(0);
    setSelected(new Set());
    setSearch({ path: to });
  };
  const editorOf = (file: string) =>
    `/file-editor/${sid}/${appId}?${new URLSearchParams({ path: file })}`;
  const open = (e: Entry) => (e.type === 'dir' ? go(e.path) : navigate(editorOf(e.path)));
  const crumbs = path.split('/').filter(Boolean);
  const entries = query.data?.data ?? [];

  const uploadFiles = async (list: FileList | null) => {
    for (const file of Array.from(list ?? [])) {
      if (file.size > MAX_UPLOAD_BYTES) {
        notify(`${file.name} is larger than ${MAX_UPLOAD_BYTES / 1024 ** 2} MB`, { type: 'error' });
        continue;
      }
      try {
        const content = await fileToBase64(file);
        await api.write({ dir_path: path, name: file.name, file_content: content });
        notify(`Uploaded ${file.name}`, { type: 'success' });
      } catch (error) {
        notify(errorMessage(error), { type: 'error' });
      }
    }
    if (upload.current) upload.current.value = '';
    refresh();
  };

  return (
    <>
      <PageHeader
        title="File manager"
        description={app ? `The files of ${String(app.name)}, as its user sees them.` : undefined}
        actions={
          <Stack direction="row" spacing={1}>
            <Button startIcon={<NoteAddOutlined />} onClick={() => setCreating('file')}>
              New file
            </Button>
            <Button startIcon={<CreateNewFolderOutlined />} onClick={() => setCreating('folder')}>
              New folder
            </Button>
            <Button startIcon={<UploadFile />} onClick={() => upload.current?.click()}>
              Upload
            </Button>
            <Button startIcon={<Refresh />} onClick={refresh}>
              Refresh
            </Button>
          </Stack>
        }
      />
      <input
        ref={upload}
        type="file"
        multiple
        hidden
        aria-label="Files to upload"
        onChange={(e) => void uploadFiles(e.target.files)}
      />
      <Breadcrumbs aria-label="Folder" sx={{ mb: 2 }}>
        <Link component="button" type="button" onClick={() => go('/')}>
          {app ? String(app.name) : 'App'}
        </Link>
        {crumbs.map((c, i) => (
          <Link
            key={crumbs.slice(0, i + 1).join('/')}
            component="button"
            type="button"
            onClick={() => go(`/${crumbs.slice(0, i + 1).join('/')}`)}
          >
            {c}
          </Link>
        ))}
      </Breadcrumbs>
      <SelectionActions
        api={api}
        sid={sid}
        appId={appId}
        selected={entries.filter((e) => selected.has(e.path))}
        onEdit={(e) => navigate(editorOf(e.path))}
        onDone={refresh}
      />
      {query.error ? (
        <Alert severity="error" role="alert">
          {errorMessage(query.error, 'The folder could not be read.')}
        </Alert>
      ) : query.data && query.data.total === 0 ? (
        <EmptyState
          title="This folder is empty"
          text="Create a file or a folder, or upload files, with the buttons above."
        />
      ) : query.data ? (
        <Card variant="outlined">
          <FileTable
            entries={entries}
            selected={selected}
            onOpen={open}
            onSelect={(paths, on) =>
              setSelected((s) => {
                const next = new Set(s);
                for (const p of paths)
                  if (on) next.add(p);
                  else next.delete(p);
                return next;
              })
            }
          />
          <TablePagination
            component="div"
            count={query.data.total}
            page={page}
            rowsPerPage={perPage}
            rowsPerPageOptions={[50, 100, 200, 500]}
            onPageChange={(_, p) => {
              setPage(p);
              setSelected(new Set());
            }}
            onRowsPerPageChange={(e) => {
              setPerPage(Number(e.target.value));
              setPage(0);
            }}
          />
        </Card>
      ) : null}
      {creating ? (
        <FormDialog
          title={creating === 'file' ? 'New file' : 'New folder'}
          submit="Create"
          fields={[{ name: 'name', label: 'Name' }]}
          onClose={() => setCreating(null)}
          onSubmit={async ({ name }) => {
            await api.write({ dir_path: path, name: name ?? '', is_dir: creating === 'folder' });
            notify(`Created ${joinPath(path, name ?? '')}`, { type: 'success' });
            refresh();
          }}
        />
      ) : null}
    </>
  );
}
