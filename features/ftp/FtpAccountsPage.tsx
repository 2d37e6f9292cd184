import { useState } from 'react';
import {
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  FormControlLabel,
  IconButton,
  Tooltip,
  Typography,
} from '@mui/material';
import Add from '@mui/icons-material/Add';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import DriveFolderUploadOutlined from '@mui/icons-material/DriveFolderUploadOutlined';
import { type RaRecord, useDelete, useGetOne, useNotify } from 'ra-core';
import { Link, useLocation, useParams } from 'react-router-dom';
import { GenericCreate } from '../../src/generic/GenericCreate';
import { GenericEdit } from '../../src/generic/GenericEdit';
import { GenericList } from '../../src/generic/GenericList';
import { savedMessage } from '../../src/generic/formModel';
import { errorMessage } from '../../src/generic/serverErrors';
import { usePublishWebApp } from '../../src/shell/WebAppInfo';
import { ROOT_DIRECTORY } from './names';
import { ftp } from './resource';

/** The spec's address of an app's FTP accounts. */
export const ftpPath = (sid: number | string, app: number | string) =>
  `/ftp-accounts/${sid}/${app}`;

/** The change form: a new password (empty keeps it) and the folder; the name stays. */
const EDITED = ['password', 'directory'] as const;

/**
 * Delete, after a dialog that names the account and offers to delete its folder too (never
 * the app's own folder: the box is off for an account shut in it).
 */
function DeleteFtpButton({ record, meta }: { record: RaRecord; meta: Record<string, unknown> }) {
  const [open, setOpen] = useState(false);
  const [withFolder, setWithFolder] = useState(false);
  const notify = useNotify();
  const [remove, { isPending }] = useDelete();
  const name = String(record.username);
  const atRoot = record.directory === ROOT_DIRECTORY;
  const confirm = () =>
    remove(
      ftp.name,
      {
        id: record.id,
        previousData: record,
        meta: { ...meta, ...(withFolder ? { query: { delhome: 'true' } } : {}) },
      },
      {
        mutationMode: 'pessimistic',
        onSuccess: (data) => {
          setOpen(false);
          const message = savedMessage(
            data as Record<string, unknown>,
            `FTP account ${name}`,
            'deleted',
          );
          notify(
            message.type === 'success'
              ? `FTP account ${name} was deleted${withFolder ? ', with its folder' : ''}.`
              : message.text,
            { type: message.type },
          );
        },
        onError: (error) => {
          setOpen(false);
          notify(errorMessage(error, `FTP account ${name} could not be deleted.`), {
            type: 'error',
          });
        },
      },
    );
  return (
    <>
      <Tooltip title={`Delete ${name}`}>
        <IconButton
          aria-label={`Delete ${name}`}
          onClick={() => (setWithFolder(false), setOpen(true))}
          disabled={record.status === 'deleting'}
          size="small"
        >
          <DeleteOutline fontSize="small" />
        </IconButton>
      </Tooltip>
      <Dialog open={open} onClose={() => !isPending && setOpen(false)}>
        <DialogTitle>Delete FTP account {name}?</DialogTitle>
        <DialogContent>
          <DialogContentText>
            {name} can no longer log in. Files uploaded stay in the app unless you delete the folder
            too.
          </DialogContentText>
          <FormControlLabel
            control={
              <Checkbox
                checked={withFolder}
                onChange={(e) => setWithFolder(e.target.checked)}
                disabled={atRoot}
              />
            }
            label={`Delete its folder ${atRoot ? '' : `(${String(record.directory)}) `}too`}
          />
          {atRoot && (
            <Typography variant="body2" color="text.secondary">
              Its folder is the app&apos;s own folder: it is never deleted with an account.
            </Typography>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)} disabled={isPending}>
            Cancel
          </Button>
          <Button color="error" variant="contained" onClick={confirm} disabled={isPending}>
            {isPending ? 'Deleting…' : 'Delete'}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}

/**
 * /ftp-accounts/{serverId}/{webAppId}: the app's FTP accounts; `?new` adds one, `?edit={id}`
 * changes its password or folder.
 */
export default function FtpAccountsPage() {
  const params = useParams();
  const sid = Number(params.serverId);
  const appId = Number(params.webAppId);
  const search = new URLSearchParams(useLocation().search);
  const editing = search.get('edit');
  const { data: app } = useGetOne<RaRecord>('webstacks', { id: appId, meta: { sid } });
  usePublishWebApp(app as never);
  const meta = { sid, appId };
  const page = ftpPath(sid, appId);
  const appName = app ? String(app.name) : 'the app';
  const folder = app ? String(app.path) : "the app's folder";

  if (search.has('new'))
    return (
      <GenericCreate
        resource={ftp}
        title="Add an FTP account"
        description={`A login shut in ${folder} or a folder inside it; files it uploads belong to ${appName}'s user.`}
        noun="The FTP account"
        meta={meta}
        saveLabel="Add FTP account"
        cancelTo={page}
        redirectTo={() => page}
        failedTo={page}
      />
    );
  if (editing && /^\d+$/.test(editing))
    return (
      <GenericEdit
        key={editing}
        resource={ftp}
        id={editing}
        title="Change FTP account"
        description="Leave the password empty to keep it. The folder is inside the app's folder."
        noun="The FTP account"
        meta={meta}
        cancelTo={page}
        redirectTo={() => page}
        failedTo={page}
        missingTo={page}
        only={EDITED}
      />
    );
  const add = (
    <Button component={Link} to={`${page}?new`} variant="contained" startIcon={<Add />}>
      Add FTP account
    </Button>
  );
  return (
    <GenericList
      resource={ftp}
      title="FTP accounts"
      description={
        app
          ? `Logins for ${appName}, each shut in ${folder} or a folder inside it (FTP on port 21, passive ports 30000–30100).`
          : undefined
      }
      meta={meta}
      filterFields={[]}
      render={{
        directory: (r: RaRecord) =>
          r.directory === ROOT_DIRECTORY ? "The app's folder" : String(r.directory),
      }}
      editLink={(r) => `${page}?edit=${String(r.id)}`}
      rowActions={(r) => <DeleteFtpButton record={r} meta={meta} />}
      empty={{
        title: 'No FTP accounts yet',
        text: `An FTP login uploads files into ${appName}, and cannot leave its folder.`,
        icon: DriveFolderUploadOutlined,
        action: add,
      }}
      actions={add}
    />
  );
}
