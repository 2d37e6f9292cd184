import { Box, Stack, Typography } from '@mui/material';
import { CopyButton } from '../../src/generic/CopyButton';
import type { MailRecordOut } from './authResource';

/**
 * One record to publish, as a DNS provider's form asks for it: name, type, TTL, value, each with
 * a copy button; a long TXT (DKIM) also as its quoted strings of 255 for forms that want them.
 */
export function MailRecordRow({ record }: { record: MailRecordOut }) {
  const value = record.type === 'MX' ? `${record.priority} ${record.content}` : record.content;
  return (
    <Box sx={{ py: 1, borderTop: 1, borderColor: 'divider' }}>
      <Typography variant="body2" color="text.secondary">
        {record.why}
      </Typography>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        <Typography variant="body2">
          <strong>{record.type}</strong> · Name <code>{record.name}</code> ({record.fqdn}) · TTL{' '}
          {record.ttl}
          {record.type === 'MX' ? ` · Priority ${record.priority}` : ''}
        </Typography>
        <CopyButton value={record.name} label={`Copy the name of the ${record.type} record`} />
      </Stack>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
        <Typography
          component="code"
          variant="body2"
          sx={{ fontFamily: 'monospace', wordBreak: 'break-all', flex: 1 }}
        >
          {record.type === 'MX' ? record.content : value}
        </Typography>
        <CopyButton value={record.content} label={`Copy the value of the ${record.type} record`} />
        {record.content_split.length > 1 && (
          <CopyButton
            value={record.content_quoted}
            label="Copy as quoted strings of 255 characters"
          />
        )}
      </Stack>
    </Box>
  );
}
