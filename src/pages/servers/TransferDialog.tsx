import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
} from '@mui/material';
import SendOutlined from '@mui/icons-material/SendOutlined';
import { Form, useNotify } from 'ra-core';
import { SaveButton, TextInput } from 'ra-ui-materialui';
import type { z } from 'zod';
import {
  MAX_OPEN_OFFERS_PER_SERVER,
  type Server,
  TRANSFER_DAYS,
  servers,
} from '../../../resources/servers';
import { keepText } from '../../generic/SchemaInput';
import { schemaResolver } from '../../generic/schemaResolver';
import { useSubmitHandler } from '../../generic/useSubmitHandler';
import { useStackdeckData } from '../../hooks';
import { shownName } from './serverName';

/** The declared body of `POST transfer/servers/...`: the form checks what the server checks. */
const transferBody = (() => {
  const body = servers.actions?.transfer.body;
  if (!body) throw new Error('servers.transfer declares no body');
  return body;
})();
type TransferBody = z.infer<typeof transferBody>;
const resolver = schemaResolver(transferBody);
const FIELDS = ['email'] as const;

/**
 * Offers a server to another Stackdeck user by email. The server stays here until they accept
 * from the mail; then it moves to their account with its agent.
 */
export function TransferDialog({ server, onClose }: { server: Server; onClose: () => void }) {
  const dataProvider = useStackdeckData();
  const notify = useNotify();
  const { name } = shownName(server);
  const onSubmit = useSubmitHandler<TransferBody>(
    FIELDS,
    async (body) => {
      await dataProvider.action('servers', 'transfer', { params: { sid: server.id }, body });
      notify(`Transfer offered to ${body.email}. ${name} moves once they accept.`, {
        type: 'success',
      });
      onClose();
    },
    null,
  );
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="transfer-title">
      <Form defaultValues={{ email: '' }} resolver={resolver} onSubmit={onSubmit} noValidate>
        <DialogTitle id="transfer-title">Transfer {name}</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>
            The other user gets a mail with a link that is valid for {TRANSFER_DAYS} days. When they
            accept, the server, its agent and everything on it move to their account and leave
            yours, and any other offer of it lapses. A server can be offered to{' '}
            {MAX_OPEN_OFFERS_PER_SERVER} addresses at a time, once each.
          </DialogContentText>
          <TextInput
            source="email"
            type="email"
            parse={keepText}
            label="Email of the new owner"
            fullWidth
            autoFocus
            helperText={false}
          />
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={onClose}>Cancel</Button>
          <SaveButton label="Offer transfer" icon={<SendOutlined />} alwaysEnable />
        </DialogActions>
      </Form>
    </Dialog>
  );
}
