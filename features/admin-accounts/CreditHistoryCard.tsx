import { Stack, TableCell, TableRow, Typography } from '@mui/material';
import ReceiptLongOutlined from '@mui/icons-material/ReceiptLongOutlined';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { formatBytes } from '../../src/generic/photoFile';
import { formatDateTime } from '../../src/generic/format';
import { QueryTable } from '../../src/generic/QueryTable';
import { SectionCard } from '../../src/generic/SectionCard';
import { TablePager, usePaging } from '../../src/generic/TablePager';
import { useStackdeckData } from '../../src/hooks';
import type { CreditHistory } from './schemas';

const signed = (bytes: number) => `${bytes < 0 ? '−' : '+'}${formatBytes(Math.abs(bytes))}`;

/**
 * The account's credit and its ledger (`GET admin/credit-history?uid`): today the backup storage
 * credit, each change with its reason and the admin who made it.
 */
export function CreditHistoryCard({ userId }: { userId: number }) {
  const dataProvider = useStackdeckData();
  const paging = usePaging(10);
  const query = useQuery({
    queryKey: ['admin-accounts', 'credit-history', userId, paging.page, paging.perPage],
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) =>
      dataProvider.action<CreditHistory>('admin-accounts', 'creditHistory', {
        query: { uid: userId, page: paging.page + 1, perPage: paging.perPage },
        signal,
      }),
  });
  const history = query.data;
  return (
    <SectionCard
      id="admin-profile-credit"
      title="Credit history"
      subtitle="Backup storage on this panel: its allowance and every change to it."
      icon={ReceiptLongOutlined}
    >
      <Stack spacing={2}>
        {history ? (
          <Typography variant="body2" data-testid="credit-summary">
            {formatBytes(history.used_bytes)} used of {formatBytes(history.credit_bytes)}
            {history.metered_at ? `, measured ${formatDateTime(history.metered_at)}` : ''}
          </Typography>
        ) : null}
        <QueryTable
          query={{ isPending: query.isPending, error: query.error, data: history?.data }}
          failed="The credit history could not be loaded."
          empty="No change yet: the account has the default allowance."
          label="Credit history"
          columns={['When', { label: 'Change', align: 'right' }, 'Reason', 'By']}
          footer={<TablePager paging={paging} total={history?.total} options={[10, 25, 50]} />}
        >
          {(rows) =>
            rows.map((line) => (
              <TableRow key={line.id}>
                <TableCell>{formatDateTime(line.created_at)}</TableCell>
                <TableCell align="right">{signed(line.delta_bytes)}</TableCell>
                <TableCell>{line.reason}</TableCell>
                <TableCell>{line.by}</TableCell>
              </TableRow>
            ))
          }
        </QueryTable>
      </Stack>
    </SectionCard>
  );
}
