import {
  Box,
  Button,
  Card,
  CardContent,
  Link as MuiLink,
  TableCell,
  TableRow,
} from '@mui/material';
import StorageOutlined from '@mui/icons-material/StorageOutlined';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { CardPager } from '../../src/generic/CardPager';
import { EmptyState } from '../../src/generic/EmptyState';
import { PageHeader } from '../../src/generic/PageHeader';
import { QueryTable } from '../../src/generic/QueryTable';
import { StatusCell } from '../../src/generic/StatusCell';
import { useStackdeckData } from '../../src/hooks';
import { dbPaths } from './links';

const PER_PAGE = 25;

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
  const dp = useStackdeckData();
  const [page, setPage] = useState(1);
  const query = useQuery({
    // The acting user's: the data provider names them, and the cache is cleared on a switch.
    queryKey: ['database-overview', 'ofUser'],
    queryFn: ({ signal }) =>
      dp.action<{ data: Row[]; total: number }>('database-overview', 'ofUser', { signal }),
  });
  const all = query.data?.data ?? [];
  const pages = Math.max(1, Math.ceil(all.length / PER_PAGE));
  const shown = all.slice((page - 1) * PER_PAGE, page * PER_PAGE);
  return (
    <Box sx={{ maxWidth: 1080 }}>
      <PageHeader
        title="Databases"
        description="The MariaDB databases of all your servers. Open a server's list to add, change or remove one."
      />
      {!query.isPending && !query.error && all.length === 0 ? (
        <Card variant="outlined">
          <EmptyState
            title="No databases yet"
            text="Databases belong to a server: open a server, then Databases."
            icon={StorageOutlined}
            action={
              <Button component={Link} to="/dashboard" variant="contained">
                Choose a server
              </Button>
            }
          />
        </Card>
      ) : (
        <Card variant="outlined">
          <CardContent>
            <QueryTable
              query={{ ...query, data: shown }}
              failed="The databases could not be loaded."
              empty="No databases yet."
              label="Databases of all servers"
              columns={['Database', 'Server', 'Collation', 'Users', 'Status']}
            >
              {(rows) =>
                rows.map((row) => (
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
                ))
              }
            </QueryTable>
          </CardContent>
        </Card>
      )}
      <CardPager pages={pages} page={page} setPage={setPage} label="Database pages" />
    </Box>
  );
}
