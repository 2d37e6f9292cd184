import { Link as MuiLink, TableCell, TableRow } from '@mui/material';
import LanguageOutlined from '@mui/icons-material/LanguageOutlined';
import { Link } from 'react-router-dom';
import { AcrossServersPage } from '../../src/generic/AcrossServersPage';
import { StatusCell } from '../../src/generic/StatusCell';
import { appPaths } from './links';
import { STACK_LABELS } from './names';
import type { Webapp } from './schemas';

type Row = Webapp & { server_id: number; server_name: string };

/**
 * /web-applications (main sidebar): every web app on the user's servers (`webstacks/users/
 * {id}`), each leading to its account summary.
 */
export default function AllWebAppsPage() {
  return (
    <AcrossServersPage<Row>
      resource="webapp-overview"
      action="ofUser"
      title="Web apps"
      description="The web apps of all your servers. Open one to change it, or a server to add one."
      plural="web apps"
      emptyText="Web apps belong to a server: open a server, then Web Apps."
      icon={LanguageOutlined}
      columns={['App', 'Domains', 'Server', 'Stack', 'Status']}
      row={(app) => (
        <TableRow key={app.id}>
          <TableCell sx={{ fontWeight: 500 }}>
            <MuiLink component={Link} to={appPaths.summary(app.server_id, app.id)}>
              {app.name}
            </MuiLink>
          </TableCell>
          <TableCell>{app.domains.join(', ')}</TableCell>
          <TableCell>
            <MuiLink component={Link} to={appPaths.list(app.server_id)}>
              {app.server_name}
            </MuiLink>
          </TableCell>
          <TableCell>{STACK_LABELS[app.stack_type]}</TableCell>
          <TableCell>
            <StatusCell record={app as never} />
          </TableCell>
        </TableRow>
      )}
    />
  );
}
