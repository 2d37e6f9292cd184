import { useCallback, useEffect, useRef, useState } from 'react';
import { Alert, Box, Button, Card, Chip, Stack, Typography } from '@mui/material';
import ArrowBack from '@mui/icons-material/ArrowBack';
import Save from '@mui/icons-material/Save';
import Editor, { type OnMount } from '@monaco-editor/react';
import { type RaRecord, useGetOne, useNotify } from 'ra-core';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { PageHeader } from '../../src/generic/PageHeader';
import { errorMessage } from '../../src/generic/serverErrors';
import { usePublishWebApp } from '../../src/shell/WebAppInfo';
import { type FileContent, base64ToText, textToBase64, useFilesApi } from './filesApi';
import { languageOf } from './languages';
import { dirOf, normalizePath } from './names';
import './monacoSetup';

const LEAVE = 'This file has changes that are not saved. Leave without saving them?';

/**
 * /file-editor/{serverId}/{webAppId}?path=: a text file of the app in Monaco (bundled, never
 * from a CDN). Ctrl+S saves against the version opened (its etag): a file changed on the server
 * meanwhile is never overwritten, the save is refused and says so. Leaving with unsaved changes
 * asks first (closing the tab, a link of the panel, the back button here).
 */
export default function FileEditorPage() {
  const params = useParams();
  const sid = Number(params.serverId);
  const appId = Number(params.webAppId);
  const [search] = useSearchParams();
  const path = normalizePath(search.get('path') ?? '/');
  const navigate = useNavigate();
  const notify = useNotify();
  const api = useFilesApi(sid, appId);
  const { data: app } = useGetOne<RaRecord>('webstacks', { id: appId, meta: { sid } });
  usePublishWebApp(app as never);
  const [file, setFile] = useState<FileContent | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [text, setText] = useState('');
  const [saved, setSaved] = useState('');
  const [saving, setSaving] = useState(false);
  const dirty = file !== null && text !== saved;
  const state = useRef({ text, file, dirty, saving });
  state.current = { text, file, dirty, saving };

  useEffect(() => {
    const abort = new AbortController();
    setFile(null);
    setError(null);
    api
      .open(path, abort.signal)
      .then((got) => {
        if (got.binary) throw new Error(`${got.name} is a binary file: download it instead`);
        const content = base64ToText(got.file_content);
        setFile(got);
        setText(content);
        setSaved(content);
      })
      .catch((e: unknown) => {
        if (!abort.signal.aborted) setError(errorMessage(e, 'The file could not be opened.'));
      });
    return () => abort.abort();
  }, [sid, appId, path]);

  const save = useCallback(async () => {
    const { text: now, file: opened, saving: busy } = state.current;
    if (!opened || busy) return;
    setSaving(true);
    try {
      const written = await api.write({
        dir_path: opened.dir_path,
        name: opened.name,
        file_content: textToBase64(now),
        etag: opened.etag,
      });
      setFile({ ...opened, etag: written.etag ?? opened.etag, size: written.size });
      setSaved(now);
      notify(`Saved ${opened.name}`, { type: 'success' });
    } catch (e) {
      notify(errorMessage(e, 'The file could not be saved.'), { type: 'error' });
    } finally {
      setSaving(false);
    }
  }, [api, notify]);

  // Leaving with changes: the browser asks on reload or close; the panel's links ask here.
  useEffect(() => {
    const beforeUnload = (e: BeforeUnloadEvent) => {
      if (state.current.dirty) e.preventDefault();
    };
    const click = (e: MouseEvent) => {
      const link = (e.target as Element | null)?.closest?.('a[href]');
      if (link && state.current.dirty && !window.confirm(LEAVE)) {
        e.preventDefault();
        e.stopPropagation();
      }
    };
    window.addEventListener('beforeunload', beforeUnload);
    document.addEventListener('click', click, true);
    return () => {
      window.removeEventListener('beforeunload', beforeUnload);
      document.removeEventListener('click', click, true);
    };
  }, []);

  const onMount: OnMount = (editor, monaco) => {
    editor.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.KeyS, () => void save());
    editor.focus();
  };
  const back = () => {
    if (state.current.dirty && !window.confirm(LEAVE)) return;
    navigate(`/file-manager/${sid}/${appId}?${new URLSearchParams({ path: dirOf(path) })}`);
  };

  return (
    <>
      <PageHeader
        title={file?.name ?? 'File editor'}
        description={path}
        actions={
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            {dirty ? <Chip size="small" color="warning" label="Unsaved changes" /> : null}
            <Button startIcon={<ArrowBack />} onClick={back}>
              Back to the files
            </Button>
            <Button
              variant="contained"
              startIcon={<Save />}
              disabled={!dirty || saving}
              onClick={() => void save()}
            >
              {saving ? 'Saving…' : 'Save'}
            </Button>
          </Stack>
        }
      />
      {error ? (
        <Alert severity="error" role="alert">
          {error}
        </Alert>
      ) : file ? (
        <Card variant="outlined">
          <Box sx={{ height: '70vh' }} data-testid="file-editor">
            <Editor
              value={text}
              language={languageOf(file.name)}
              onChange={(v) => setText(v ?? '')}
              onMount={onMount}
              options={{ fontSize: 13, minimap: { enabled: false }, scrollBeyondLastLine: false }}
            />
          </Box>
        </Card>
      ) : (
        <Typography color="text.secondary">Opening {path}…</Typography>
      )}
    </>
  );
}
