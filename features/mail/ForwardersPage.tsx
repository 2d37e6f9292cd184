import { useState } from 'react';
import {
  Button,
  Link as MuiLink,
  Paper,
  Stack,
  TableCell,
  TableRow,
  Typography,
} from '@mui/material';
import Add from '@mui/icons-material/Add';
import ForwardToInbox from '@mui/icons-material/ForwardToInbox';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { RaRecord } from 'ra-core';
import { Link } from 'react-router-dom';
import { EmptyState } from '../../src/generic/EmptyState';
import { PageHeader } from '../../src/generic/PageHeader';
import { QueryTable } from '../../src/generic/QueryTable';
import { SectionCard } from '../../src/generic/SectionCard';
import { StatusCell } from '../../src/generic/StatusCell';
import { TablePager, usePaging } from '../../src/generic/TablePager';
import { useStackdeckData } from '../../src/hooks';
import {
  AddForwarderDialog,
  CatchAllDialog,
  DeleteForwarderDialog,
  EditForwarderDialog,
  RemoveCatchAllDialog,
} from './ForwarderDialogs';
import type { Forwarder, MailDomain } from './forwardersResource';

/** Said where no app of the account has mail: forwarders go on the domains of apps that do. */
function NoMailDomains() {
  return (
    <EmptyState
      title="No mail domains yet"
      text="Mail is enabled per server, from a web app's Email accounts page; forwarders then go on that app's domains."
      icon={ForwardToInbox}
      action={
        <MuiLink component={Link} to="/web-applications">
          Your web applications
        </MuiLink>
      }
    />
  );
}

type Open =
  | { kind: 'add' }
  | { kind: 'edit' | 'delete'; forwarder: Forwarder }
  | { kind: 'catchAll' | 'removeCatchAll'; domain: MailDomain }
  | null;

/** The domains' catch-alls: one line per domain of the account's apps with mail. */
function CatchAlls({
  domains,
  open,
}: {
  domains: MailDomain[];
  open: (o: NonNullable<Open>) => void;
}) {
  return (
    <SectionCard
      id="catch-alls"
      title="Catch-all"
      subtitle="Per domain: where mail to an address with no mailbox or forwarder goes. Off, it is refused."
    >
      <QueryTable
        query={{ isPending: false, error: null, data: domains }}
        failed="The mail domains could not be read"
        empty="No mail domains."
        label="Catch-all"
        columns={['Domain', 'App', 'Catch-all', '']}
      >
        {(rows) =>
          rows.map((d) => (
            <TableRow key={`${d.webapp_id} ${d.domain}`}>
              <TableCell>{d.domain}</TableCell>
              <TableCell>
                {d.webapp_name} ({d.server_name})
              </TableCell>
              <TableCell>
                {d.catch_all ? (
                  <Stack spacing={0.5}>
                    <span>{d.catch_all.targets.join(', ')}</span>
                    {d.catch_all.status !== 'active' ? (
                      <StatusCell record={d.catch_all as unknown as RaRecord} />
                    ) : null}
                  </Stack>
                ) : (
                  'Off'
                )}
              </TableCell>
              <TableCell align="right">
                <Button
                  size="small"
                  onClick={() => open({ kind: 'catchAll', domain: d })}
                  aria-label={`${d.catch_all ? 'Edit' : 'Set up'} the catch-all of ${d.domain}`}
                >
                  {d.catch_all ? 'Edit' : 'Set up'}
                </Button>
                {d.catch_all ? (
                  <Button
                    size="small"
                    color="error"
                    onClick={() => open({ kind: 'removeCatchAll', domain: d })}
                    aria-label={`Remove the catch-all of ${d.domain}`}
                  >
                    Remove
                  </Button>
                ) : null}
              </TableCell>
            </TableRow>
          ))
        }
      </QueryTable>
    </SectionCard>
  );
}

/**
 * /forwarders: the account's forwarders (addresses with no mailbox that forward elsewhere),
 * paged, added, changed and deleted here; and each mail domain's catch-all.
 */
export default function ForwardersPage() {
  const dp = useStackdeckData();
  const queryClient = useQueryClient();
  const paging = usePaging();
  const [open, setOpen] = useState<Open>(null);
  const list = useQuery({
    queryKey: ['mail-forwarders', 'list', paging.page, paging.perPage],
    queryFn: ({ signal }) =>
      dp.action<{ data: Forwarder[]; total: number }>('mail-forwarders', 'list', {
        query: { page: paging.page + 1, perPage: paging.perPage },
        signal,
      }),
  });
  const domainsQuery = useQuery({
    queryKey: ['mail-forwarders', 'domains'],
    queryFn: ({ signal }) => dp.action<MailDomain[]>('mail-forwarders', 'domains', { signal }),
  });
  const domains = domainsQuery.data ?? [];
  const close = () => {
    setOpen(null);
    void queryClient.invalidateQueries({ queryKey: ['mail-forwarders'] });
  };
  const add = (
    <Button
      variant="contained"
      startIcon={<Add />}
      onClick={() => setOpen({ kind: 'add' })}
      disabled={!domains.length}
    >
      Add forwarder
    </Button>
  );
  const noMail = domainsQuery.data !== undefined && domains.length === 0;

  return (
    <Stack spacing={2}>
      <PageHeader
        title="Forwarders"
        description="Addresses on your apps' domains that have no mailbox and send their mail on to other addresses."
        actions={noMail ? undefined : add}
      />
      {noMail ? (
        <NoMailDomains />
      ) : (
        // On paper: the red of Delete is too faint on the page's grey for small text.
        <Paper variant="outlined">
          <QueryTable
            query={{ ...list, data: list.data?.data }}
            failed="The forwarders could not be read"
            empty={
              paging.page === 0 ? (
                <EmptyState
                  title="No forwarders yet"
                  text="A forwarder receives mail for an address such as sales@ and sends it on to one or more addresses, here or elsewhere."
                  icon={ForwardToInbox}
                  action={add}
                />
              ) : (
                'No forwarders on this page.'
              )
            }
            label="Forwarders"
            columns={['Address', 'Forwards to', 'App', 'Status', '']}
            footer={<TablePager paging={paging} total={list.data?.total} />}
          >
            {(rows) =>
              rows.map((f) => (
                <TableRow key={f.id}>
                  <TableCell>{f.address}</TableCell>
                  <TableCell>
                    <Typography variant="body2" sx={{ wordBreak: 'break-word' }}>
                      {f.targets.join(', ')}
                    </Typography>
                  </TableCell>
                  <TableCell>
                    {f.webapp_name} ({f.server_name})
                  </TableCell>
                  <TableCell>
                    <StatusCell record={f as unknown as RaRecord} />
                  </TableCell>
                  <TableCell align="right">
                    <Button
                      size="small"
                      onClick={() => setOpen({ kind: 'edit', forwarder: f })}
                      disabled={f.status === 'deleting'}
                      aria-label={`Edit ${f.address}`}
                    >
                      Edit
                    </Button>
                    <Button
                      size="small"
                      color="error"
                      onClick={() => setOpen({ kind: 'delete', forwarder: f })}
                      disabled={f.status === 'deleting'}
                      aria-label={`Delete ${f.address}`}
                    >
                      Delete
                    </Button>
                  </TableCell>
                </TableRow>
              ))
            }
          </QueryTable>
        </Paper>
      )}
      {domains.length ? <CatchAlls domains={domains} open={setOpen} /> : null}
      {open?.kind === 'add' ? <AddForwarderDialog domains={domains} onClose={close} /> : null}
      {open?.kind === 'edit' ? (
        <EditForwarderDialog forwarder={open.forwarder} onClose={close} />
      ) : null}
      {open?.kind === 'delete' ? (
        <DeleteForwarderDialog forwarder={open.forwarder} onClose={close} />
      ) : null}
      {open?.kind === 'catchAll' ? <CatchAllDialog domain={open.domain} onClose={close} /> : null}
      {open?.kind === 'removeCatchAll' ? (
        <RemoveCatchAllDialog domain={open.domain} onClose={close} />
      ) : null}
    </Stack>
  );
}
