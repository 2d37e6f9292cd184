import { Alert, Button, Card, CardContent, Typography } from '@mui/material';
import ArrowBack from '@mui/icons-material/ArrowBack';
import { useRecordContext } from 'ra-core';
import { Link } from 'react-router-dom';
import { outbox } from '../../../resources/outbox';
import { GenericShow } from '../../generic/GenericShow';
import { MailStatus } from './MailStatus';

function MailText() {
  const record = useRecordContext();
  if (!record) return null;
  return (
    <Card variant="outlined" sx={{ mt: 2 }}>
      {record.error ? (
        <Alert severity="error" sx={{ borderRadius: 0 }}>
          Delivery failed: {String(record.error)}
        </Alert>
      ) : null}
      <CardContent>
        <Typography
          component="pre"
          aria-label="Mail text"
          sx={{
            m: 0,
            fontFamily: 'monospace',
            fontSize: 14,
            whiteSpace: 'pre-wrap',
            wordBreak: 'break-word',
          }}
        >
          {String(record.text)}
        </Typography>
      </CardContent>
    </Card>
  );
}

/** /admin/outbox/:id: one mail, its text as it was sent with codes and their links masked. */
export function OutboxShow() {
  return (
    <GenericShow
      resource={outbox}
      fields={['to', 'created_at', 'sent_at']}
      labels={{ created_at: 'Queued', sent_at: 'Status' }}
      render={{ sent_at: (record) => <MailStatus record={record} /> }}
      actions={
        <Button component={Link} to="/admin/outbox" startIcon={<ArrowBack />}>
          Outbox
        </Button>
      }
    >
      <MailText />
    </GenericShow>
  );
}
