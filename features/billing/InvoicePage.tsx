import {
  Alert,
  Box,
  Button,
  CircularProgress,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import ReceiptLongOutlined from '@mui/icons-material/ReceiptLongOutlined';
import { useQuery } from '@tanstack/react-query';
import { Link as RouterLink, useParams } from 'react-router-dom';
import { PageHeader } from '../../src/generic/PageHeader';
import { SectionCard } from '../../src/generic/SectionCard';
import { formatDate } from '../../src/generic/format';
import { errorMessage } from '../../src/generic/serverErrors';
import { useStackdeckData } from '../../src/hooks';
import { InvoiceStatus, money } from './parts';
import type { InvoiceDetail, Party } from './schemas';

function PartyBlock({ title, party }: { title: string; party: Party | null }) {
  if (!party) return null;
  return (
    <Box>
      <Typography variant="body2" color="text.secondary">
        {title}
      </Typography>
      <Typography>{party.name}</Typography>
      {party.address.map((line) => (
        <Typography key={line}>{line}</Typography>
      ))}
      {party.country && <Typography>{party.country}</Typography>}
      {party.taxNumber && <Typography>Tax number {party.taxNumber}</Typography>}
      {party.email && <Typography>{party.email}</Typography>}
    </Box>
  );
}

/** /payment-invoice/{id}: one invoice or credit note, as issued. */
export default function InvoicePage() {
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
  const title = `${inv.kind === 'credit_note' ? 'Credit note' : 'Invoice'} ${inv.number ?? ''}`;
  return (
    <Box>
      <PageHeader
        title={title}
        actions={
          <Stack direction="row" spacing={1}>
            {inv.status === 'open' && inv.kind === 'invoice' && (
              <Button component={RouterLink} to={`/payment/${inv.id}`} variant="contained">
                Pay
              </Button>
            )}
            <Button component={RouterLink} to="/subscription">
              Back to subscription
            </Button>
          </Stack>
        }
      />
      <SectionCard
        id="invoice"
        title={title}
        icon={ReceiptLongOutlined}
        aside={<InvoiceStatus invoice={inv} />}
      >
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={4} sx={{ mb: 3 }}>
          <PartyBlock title="From" party={inv.seller} />
          <PartyBlock title="To" party={inv.buyer} />
          <Box>
            <Typography variant="body2" color="text.secondary">
              Dates
            </Typography>
            <Typography>Issued {formatDate(inv.finalized_at)}</Typography>
            {inv.due_at && <Typography>Due {formatDate(inv.due_at)}</Typography>}
            {inv.paid_at && <Typography>Paid {formatDate(inv.paid_at)}</Typography>}
            {inv.voided_at && <Typography>Voided {formatDate(inv.voided_at)}</Typography>}
          </Box>
        </Stack>
        <Table size="small" aria-label="Invoice lines">
          <TableHead>
            <TableRow>
              <TableCell>Description</TableCell>
              <TableCell align="right">Quantity</TableCell>
              <TableCell align="right">Amount</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {inv.lines.map((line, i) => (
              <TableRow key={i}>
                <TableCell>{line.description}</TableCell>
                <TableCell align="right">{line.quantity}</TableCell>
                <TableCell align="right">{money(line.amount_minor, inv.currency)}</TableCell>
              </TableRow>
            ))}
            <TableRow>
              <TableCell colSpan={2}>Subtotal</TableCell>
              <TableCell align="right">{money(inv.subtotal_minor, inv.currency)}</TableCell>
            </TableRow>
            {inv.discount_minor > 0 && (
              <TableRow>
                <TableCell colSpan={2}>{inv.discount_label ?? 'Discount'}</TableCell>
                <TableCell align="right">−{money(inv.discount_minor, inv.currency)}</TableCell>
              </TableRow>
            )}
            {inv.tax_rate_percent !== null && (
              <TableRow>
                <TableCell colSpan={2}>Tax {inv.tax_rate_percent} %</TableCell>
                <TableCell align="right">{money(inv.tax_minor, inv.currency)}</TableCell>
              </TableRow>
            )}
            <TableRow>
              <TableCell colSpan={2}>
                <strong>Total</strong>
              </TableCell>
              <TableCell align="right" data-testid="invoice-total">
                <strong>{money(inv.total_minor, inv.currency)}</strong>
              </TableCell>
            </TableRow>
          </TableBody>
        </Table>
        {inv.credited_minor > 0 && (
          <Alert severity="info" sx={{ mt: 2 }}>
            {money(inv.credited_minor, inv.currency)} of it was credited back by credit note.
          </Alert>
        )}
        {inv.reason && (
          <Typography sx={{ mt: 2 }} color="text.secondary">
            {inv.reason}
          </Typography>
        )}
      </SectionCard>
    </Box>
  );
}
