import {
  Alert,
  Card,
  CardContent,
  CircularProgress,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { PageHeader } from '../../src/generic/PageHeader';
import { errorMessage } from '../../src/generic/serverErrors';
import { useStackdeckData } from '../../src/hooks';
import type { DomainUsage } from './autorespondersResource';
import { NoMailboxes } from './EmailAccountsPage';

const size = (bytes: number | null) => {
  if (bytes === null) return '—';
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GB`;
};

/** /email-disk-usage: each mail domain's mailboxes, their use asked of the servers when it opens. */
export default function DiskUsagePage() {
  const dp = useStackdeckData();
  const usage = useQuery({
    queryKey: ['mail-usage'],
    // Live each time: the servers' numbers, not a copy the panel kept.
    staleTime: 0,
    queryFn: ({ signal }) => dp.action<DomainUsage[]>('mail-account', 'usage', { signal }),
  });
  return (
    <Stack spacing={2}>
      <PageHeader
        title="Email disk usage"
        description="What each mail domain's mailboxes use, asked of their servers now."
      />
      {usage.isPending ? <CircularProgress aria-label="Loading" /> : null}
      {usage.error ? <Alert severity="error">{errorMessage(usage.error)}</Alert> : null}
      {usage.data?.length === 0 ? <NoMailboxes /> : null}
      {usage.data?.map((d) => (
        <Card key={`${d.server_id} ${d.domain}`} variant="outlined">
          <CardContent>
            <Typography variant="h6">
              {d.domain}: {size(d.total_bytes)}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              On {d.server_name}
            </Typography>
            {d.error ? (
              <Alert severity="warning" sx={{ my: 1 }}>
                {d.server_name} did not answer: {d.error}
              </Alert>
            ) : null}
            <Table size="small" aria-label={`Mailboxes of ${d.domain}`}>
              <TableHead>
                <TableRow>
                  <TableCell>Address</TableCell>
                  <TableCell>Used</TableCell>
                  <TableCell>Quota</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {d.mailboxes.map((m) => (
                  <TableRow key={m.address}>
                    <TableCell>{m.address}</TableCell>
                    <TableCell>{size(m.bytes)}</TableCell>
                    <TableCell>{m.quota_mb ? `${m.quota_mb} MB` : 'No limit'}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </CardContent>
        </Card>
      ))}
    </Stack>
  );
}
