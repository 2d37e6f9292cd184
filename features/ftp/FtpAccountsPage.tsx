import { Button } from '@mui/material';
import Add from '@mui/icons-material/Add';
import DriveFolderUploadOutlined from '@mui/icons-material/DriveFolderUploadOutlined';
import { type RaRecord, useGetOne } from 'ra-core';
import { Link, useLocation, useParams } from 'react-router-dom';
import { GenericCreate } from '../../src/generic/GenericCreate';
import { GenericEdit } from '../../src/generic/GenericEdit';
import { GenericList } from '../../src/generic/GenericList';
import { usePublishWebApp } from '../../src/shell/WebAppInfo';
import { ROOT_DIRECTORY } from './names';
import { ftp } from './resource';

/** The spec's address of an app's FTP accounts. */
export const ftpPath = (sid: number | string, app: number | string) =>
  `/ftp-accounts/${sid}/${app}`;

/** The change form: a new password (empty keeps it) and the folder; the name stays. */
const EDITED = ['password', 'directory'] as const;

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
      deletable={{
        what: (r) => `FTP account ${String(r.username)}`,
        name: (r) => String(r.username),
        consequence: (r) =>
          `${String(r.username)} can no longer log in. Files uploaded stay in the app unless you delete the folder too.`,
        // Never the app's own folder: the box is off for an account shut in it.
        option: (r) => {
          const atRoot = r.directory === ROOT_DIRECTORY;
          return {
            label: `Delete its folder ${atRoot ? '' : `(${String(r.directory)}) `}too`,
            query: { delhome: 'true' },
            disabled: atRoot,
            note: atRoot
              ? "Its folder is the app's own folder: it is never deleted with an account."
              : undefined,
            doneSuffix: ', with its folder',
          };
        },
      }}
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
