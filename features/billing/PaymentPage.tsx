import { Alert, Box, Button, CircularProgress, Stack, Typography } from '@mui/material';
import AccountBalanceOutlined from '@mui/icons-material/AccountBalanceOutlined';
import { useQuery } from '@tanstack/react-query';
import { Link as RouterLink, useParams } from 'react-router-dom';
import { CopyButton } from '../../src/generic/CopyButton';
import { PageHeader } from '../../src/generic/PageHeader';
import { SectionCard } from '../../src/generic/SectionCard';
import { errorMessage } from '../../src/generic/serverErrors';
import { useStackdeckData } from '../../src/hooks';
import { money } from './parts';
import type { InvoiceDetail } from './schemas';

/**
 * /payment/{id} (the spec's /payment{id}): pay an open invoice. Bank transfer: the admin's
 * instructions and the transfer's reference; an admin marks it paid when the money arrives.
 * Card and PayPal come with payment methods.
 */
export default function PaymentPage() {
  const { id = '' } = useParams();
  const dp = useStackdeckData();
  const invoice = useQuery({
    queryKey: ['billing', 'invoice', id],
    queryFn: ({ signal }) =>
      dp.action<InvoiceDetail>('billing', 'invoice', { params: { invoiceId: id }, signal }),
  });
  if (invoice.isPending) return <CircularProgress aria-label="Loading the invoice" />;
  if (invoice.error || !invoice.data)
    return <Alert severity="error">{errorMessage(invoice.error)}</Alert>;
  const inv = invoice.data;
  const transfer = [...inv.payments]
    .reverse()
    .find((p) => p.gateway === 'manual' && p.status === 'processing');
  return (
    <Box>
      <PageHeader
        title={`Pay invoice ${inv.number ?? ''}`}
        description={`${money(inv.total_minor, inv.currency)}`}
        actions={
          <Button component={RouterLink} to={`/payment-invoice/${inv.id}`}>
            View invoice
          </Button>
        }
      />
      {inv.status === 'paid' && <Alert severity="success">This invoice is paid. Thank you.</Alert>}
      {inv.status === 'void' && (
        <Alert severity="info">This invoice was voided: nothing to pay.</Alert>
      )}
      {inv.status === 'open' && (
        <Stack spacing={3}>
          <SectionCard id="bank-transfer" title="Bank transfer" icon={AccountBalanceOutlined}>
            {transfer ? (
              <>
                <Typography sx={{ whiteSpace: 'pre-wrap' }} data-testid="transfer-instructions">
                  {transfer.message}
                </Typography>
                {transfer.gateway_payment_id && (
                  <Stack direction="row" spacing={1} sx={{ mt: 2, alignItems: 'center' }}>
                    <Typography>
                      Reference: <strong>{transfer.gateway_payment_id}</strong>
                    </Typography>
                    <CopyButton value={transfer.gateway_payment_id} label="Copy the reference" />
                  </Stack>
                )}
                <Alert severity="info" sx={{ mt: 2 }}>
                  Your plan starts once the transfer arrives and we mark the invoice paid.
                </Alert>
              </>
            ) : (
              <Alert severity="info">
                This invoice is collected by card or PayPal, which are not set up on this panel yet.
                Contact us to pay it by bank transfer.
              </Alert>
            )}
          </SectionCard>
          <Alert severity="info">Card and PayPal payments are not set up on this panel.</Alert>
        </Stack>
      )}
    </Box>
  );
}
