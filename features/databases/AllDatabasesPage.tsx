import { Link as MuiLink, TableCell, TableRow } from '@mui/material';
import StorageOutlined from '@mui/icons-material/StorageOutlined';
import { Link } from 'react-router-dom';
import { AcrossServersPage } from '../../src/generic/AcrossServersPage';
import { StatusCell } from '../../src/generic/StatusCell';
import { dbPaths } from './links';

interface Row {
  id: number;
  name: string;
  collation: string;
  server_id: number;
  server_name: string;
  users: { id: number; name: string }[];
  status: string;
}

/**
 * /database-list (main sidebar): every database on the user's servers (`databases/users/{id}`),
 * each leading to its server's databases, where they are changed.
 */
export default function AllDatabasesPage() {
  return (
    <AcrossServersPage<Row>
      resource="database-overview"
      action="ofUser"
      title="Databases"
      description="The MariaDB databases of all your servers. Open a server's list to add, change or remove one."
      plural="databases"
      emptyText="Databases belong to a server: open a server, then Databases."
      icon={StorageOutlined}
      columns={['Database', 'Server', 'Collation', 'Users', 'Status']}
      row={(row) => (
        <TableRow key={row.id}>
          <TableCell sx={{ fontWeight: 500 }}>{row.name}</TableCell>
          <TableCell>
            <MuiLink component={Link} to={dbPaths.list(row.server_id)}>
              {row.server_name}
            </MuiLink>
          </TableCell>
          <TableCell sx={{ fontFamily: 'monospace' }}>{row.collation}</TableCell>
          <TableCell>{row.users.map((u) => u.name).join(', ') || '—'}</TableCell>
          <TableCell>
            <StatusCell record={row} />
          </TableCell>
        </TableRow>
      )}
    />
  );
}
