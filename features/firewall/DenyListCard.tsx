import {
  Button,
  Card,
  CardContent,
  CardHeader,
  TableCell,
  TableRow,
  Typography,
} from '@mui/material';
import { QueryTable } from '../../src/generic/QueryTable';
import type { DenyListItem } from './resource';
import { denyListUnread } from './statusWords';
import { useFirewallQuery } from './useFirewall';

/** The deny set as the server's nft holds it now (read live), temporary ones with time left. */
export function DenyListCard({
  sid,
  online,
  running,
}: {
  sid: number;
  online: boolean;
  /** The firewall is on: its table exists to be read. */
  running: boolean;
}) {
  const unread = denyListUnread(online, running);
  const live = useFirewallQuery<{ data: DenyListItem[]; total: number }>(
    sid,
    'csf',
    'denylist',
    unread === null,
  );
  const rows = live.data?.data ?? [];
  return (
    <Card variant="outlined" sx={{ mb: 2 }}>
      <CardHeader
        title="Deny list on the server"
        action={
          <Button disabled={unread !== null} onClick={() => void live.refetch()}>
            Read again
          </Button>
        }
      />
      <CardContent>
        {unread ? (
          <Typography color="text.secondary">{unread}</Typography>
        ) : (
          <QueryTable
            query={{ ...live, data: rows.slice(0, 200) }}
            failed="The deny list could not be read."
            empty="Nothing is denied on the server."
            label="Deny list on the server"
            columns={['IP address', 'Kind', 'Port', 'Expires in']}
          >
            {(shown) =>
              shown.map((r) => (
                <TableRow key={`${r.kind}-${r.ip}-${r.port ?? ''}`}>
                  <TableCell sx={{ fontFamily: 'monospace' }}>{r.ip}</TableCell>
                  <TableCell>{r.kind === 'temp' ? 'temporary' : 'permanent'}</TableCell>
                  <TableCell>{r.port ?? 'all'}</TableCell>
                  <TableCell>{r.expires_in === null ? '—' : `${r.expires_in} s`}</TableCell>
                </TableRow>
              ))
            }
          </QueryTable>
        )}
        {rows.length > 200 ? (
          <Typography variant="caption">The first 200 of {rows.length}.</Typography>
        ) : null}
      </CardContent>
    </Card>
  );
}
