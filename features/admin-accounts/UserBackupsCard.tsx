import { Chip, TableCell, TableRow } from '@mui/material';
import BackupOutlined from '@mui/icons-material/BackupOutlined';
import { useQuery } from '@tanstack/react-query';
import { formatBytes } from '../../src/generic/photoFile';
import { formatDateTime } from '../../src/generic/format';
import { QueryTable } from '../../src/generic/QueryTable';
import { SectionCard } from '../../src/generic/SectionCard';
import { useStackdeckData } from '../../src/hooks';

/** The fields of a backup policy (`GET admin/backups?uid`) this card shows. */
interface Policy {
  id: number;
  type: 'webapp' | 'database';
  subject: string;
  server_name: string;
  target_name: string;
  schedule_text: string;
  health: string;
  stored_bytes: number;
  last_run: { status: string; started_at: string | null; created_at: string } | null;
}

const HEALTH: Record<
  string,
  { label: string; color: 'success' | 'warning' | 'error' | 'default' }
> = {
  ok: { label: 'Verified', color: 'success' },
  unverified: { label: 'Not verified yet', color: 'warning' },
  failing: { label: 'Failing', color: 'error' },
  never: { label: 'Never run', color: 'default' },
  paused: { label: 'Paused', color: 'default' },
};

/** The user's backup policies of web apps and databases (admins: `GET admin/backups?uid`). */
export function UserBackupsCard({ userId }: { userId: number }) {
  const dataProvider = useStackdeckData();
  const query = useQuery({
    queryKey: ['admin-backups', 'list', userId],
    queryFn: ({ signal }) =>
      dataProvider
        .action<{ data: Policy[] }>('admin-backups', 'list', { query: { uid: userId }, signal })
        .then((answer) => answer.data),
  });
  return (
    <SectionCard id="admin-profile-backups" title="Backups" icon={BackupOutlined}>
      <QueryTable
        query={query}
        failed="The user's backups could not be loaded."
        empty="This user backs nothing up."
        label="The user's backups"
        columns={[
          'What',
          'Server',
          'Storage',
          'Schedule',
          'Health',
          'Last run',
          { label: 'Stored', align: 'right' },
        ]}
      >
        {(rows) =>
          rows.map((policy) => {
            const health = HEALTH[policy.health] ?? {
              label: policy.health,
              color: 'default' as const,
            };
            return (
              <TableRow key={policy.id}>
                <TableCell>
                  {policy.subject} ({policy.type === 'webapp' ? 'web app' : 'database'})
                </TableCell>
                <TableCell>{policy.server_name}</TableCell>
                <TableCell>{policy.target_name}</TableCell>
                <TableCell>{policy.schedule_text}</TableCell>
                <TableCell>
                  <Chip size="small" variant="outlined" color={health.color} label={health.label} />
                </TableCell>
                <TableCell>
                  {policy.last_run
                    ? `${policy.last_run.status}, ${formatDateTime(policy.last_run.started_at ?? policy.last_run.created_at)}`
                    : '—'}
                </TableCell>
                <TableCell align="right">{formatBytes(policy.stored_bytes)}</TableCell>
              </TableRow>
            );
          })
        }
      </QueryTable>
    </SectionCard>
  );
}
