import { type ReactNode, useState } from 'react';
import { Alert, Box, Button, Card, CardContent, Skeleton, Stack, Typography } from '@mui/material';
import ArrowBack from '@mui/icons-material/ArrowBack';
import EventBusyOutlined from '@mui/icons-material/EventBusyOutlined';
import SwapHorizOutlined from '@mui/icons-material/SwapHorizOutlined';
import TaskAltOutlined from '@mui/icons-material/TaskAltOutlined';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNotify } from 'ra-core';
import { Link, useNavigate } from 'react-router-dom';
import type { Server, TransferOffer } from '../../../resources/servers';
import { EmptyState } from '../../generic/EmptyState';
import { LoadError, NotFoundState } from '../../generic/LoadState';
import { formatDateTime } from '../../generic/format';
import { errorMessage } from '../../generic/serverErrors';
import { useStackdeckData } from '../../hooks';
import { shownName } from './serverName';
import { PlanLimitAlert, planLimitOf } from '../../generic/PlanLimitAlert';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const BACK = { to: '/dashboard', label: 'Back to your servers' };
const NO_OFFER_TEXT =
  'This link names no server transfer offered to you. It may be mistyped, or meant for another account.';

const statusOf = (error: unknown): number | undefined => {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' ? status : undefined;
};

/** An offer that was accepted (409), expired or became void (410): say which, and go back. */
function OfferGone({ error }: { error: unknown }) {
  const accepted = statusOf(error) === 409;
  return (
    <Card variant="outlined" data-testid="transfer-gone">
      <EmptyState
        icon={accepted ? TaskAltOutlined : EventBusyOutlined}
        title={accepted ? 'This transfer is done' : 'This offer is no longer open'}
        text={errorMessage(error, 'This transfer offer can no longer be accepted.')}
        action={
          <Button variant="contained" component={Link} to={BACK.to} startIcon={<ArrowBack />}>
            {BACK.label}
          </Button>
        }
      />
    </Card>
  );
}

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box component="div" sx={{ display: 'contents' }}>
      <Typography component="dt" variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography
        component="dd"
        variant="body2"
        sx={{ m: 0, minWidth: 0, overflowWrap: 'anywhere' }}
      >
        {children}
      </Typography>
    </Box>
  );
}

/**
 * /dashboard/{uuid} signed in: the link of a transfer mail. It reads the offer first
 * (`GET transfer/{uuid}`) and shows it only when it is open and the caller's; accepting calls
 * `GET transfer?uuid&processed=true`, then the server shows among the user's own.
 */
export function TransferAcceptance({ uuid }: { uuid: string }) {
  const dataProvider = useStackdeckData();
  const queryClient = useQueryClient();
  const notify = useNotify();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);
  const wellFormed = UUID.test(uuid);
  const {
    data: offer,
    error,
    isPending,
    refetch,
  } = useQuery({
    queryKey: ['transfer-offer', uuid],
    queryFn: ({ signal }) =>
      dataProvider.action<TransferOffer>('servers', 'transferOffer', {
        params: { uuid },
        signal,
      }),
    enabled: wellFormed,
    // A 4xx answer is final: the state below shows at once.
    retry: (count, failed) => (statusOf(failed) ?? 500) >= 500 && count < 3,
  });

  const accept = async () => {
    setBusy(true);
    try {
      const server = await dataProvider.action<Server>('servers', 'acceptTransfer', {
        query: { uuid, processed: 'true' },
      });
      await queryClient.invalidateQueries({ queryKey: ['servers'] });
      notify(`${shownName(server).name} is now yours.`, { type: 'success' });
      navigate('/dashboard', { replace: true });
    } catch (caught) {
      setFailure(caught);
    } finally {
      setBusy(false);
    }
  };

  const noOffer = (
    <Card variant="outlined">
      <NotFoundState what="transfer offer" text={NO_OFFER_TEXT} back={BACK} inline />
    </Card>
  );
  if (!wellFormed) return noOffer;
  const problem = failure ?? error;
  if (problem) {
    const status = statusOf(problem);
    if (status === 404 || status === 400) return noOffer;
    if (status === 409 || status === 410) return <OfferGone error={problem} />;
    // The recipient's plan holds no more servers: the words and the Upgrade link, inline.
    const limit = planLimitOf(problem);
    if (limit) return <PlanLimitAlert limit={limit} />;
    return (
      <Card variant="outlined">
        <LoadError
          error={problem}
          what="transfer offer"
          back={BACK}
          inline
          onRetry={() => {
            setFailure(null);
            void refetch();
          }}
        />
      </Card>
    );
  }
  if (isPending || !offer)
    return <Skeleton variant="rounded" height={220} aria-label="Loading the transfer offer" />;

  return (
    <Card component="section" variant="outlined" aria-labelledby="transfer-offer-title">
      <CardContent sx={{ p: { xs: 2.5, sm: 3 } }}>
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', mb: 2 }}>
          <SwapHorizOutlined color="primary" />
          <Typography id="transfer-offer-title" variant="h6" component="h2">
            A server is offered to you
          </Typography>
        </Stack>
        <Box
          component="dl"
          sx={{
            display: 'grid',
            gridTemplateColumns: { xs: '1fr', sm: 'max-content 1fr' },
            columnGap: 3,
            rowGap: { xs: 0.25, sm: 1 },
            m: 0,
            mb: 2.5,
          }}
        >
          <Detail label="Server">{offer.server_name}</Detail>
          <Detail label="Offered by">
            {offer.from_name} ({offer.from_email})
          </Detail>
          <Detail label="Open until">{formatDateTime(offer.expires_at)}</Detail>
        </Box>
        <Alert severity="info" variant="outlined" sx={{ mb: 2.5 }}>
          Accepting moves the server, its agent and everything on it to your account. It leaves{' '}
          {offer.from_name}&rsquo;s account and teams. If you do not know the sender, leave it: the
          offer lapses on its own.
        </Alert>
        <Stack direction="row" spacing={1.5}>
          <Button variant="contained" onClick={() => void accept()} disabled={busy}>
            Accept the server
          </Button>
          <Button color="inherit" component={Link} to="/dashboard" replace>
            Not now
          </Button>
        </Stack>
      </CardContent>
    </Card>
  );
}
