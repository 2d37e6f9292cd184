import { type ReactNode, useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Stack,
} from '@mui/material';
import { Form } from 'ra-core';
import { PasswordInput, SaveButton, TextInput } from 'ra-ui-materialui';
import { z } from 'zod';
import { type User } from '../../../resources/user-profile';
import { mintApiKeyBody } from '../../../resources/user-security';
import { keepText } from '../../generic/SchemaInput';
import { errorMessage } from '../../generic/serverErrors';
import { schemaResolver } from '../../generic/schemaResolver';
import { useSubmitHandler } from '../../generic/useSubmitHandler';
import { useStackdeckData } from '../../hooks';

/** The password, the second factor's code when it is on, and what the dialog adds (a label). */
const reauthForm = mintApiKeyBody.extend({
  otp: z.union([z.literal(''), mintApiKeyBody.shape.otp.unwrap()]).optional(),
});
export type ReauthValues = z.infer<typeof mintApiKeyBody>;
const resolver = schemaResolver(reauthForm);
const FIELDS = ['password', 'otp', 'label'];

interface Props {
  open: boolean;
  user: User;
  title: string;
  text: ReactNode;
  submitLabel: string;
  /** A red submit button, for what cannot be undone. */
  danger?: boolean;
  /** Inputs shown before the password (e.g. the key's label). */
  children?: ReactNode;
  success: string | null;
  onConfirm: (values: ReauthValues) => Promise<unknown>;
  onClose: () => void;
}

type Sending = 'idle' | 'sending' | 'sent' | { failed: string };

/**
 * Asks the account holder to prove it is them before something a stolen session must not do
 * alone: the password, and with two-factor sign-in on, a code (mailed on request, or from the
 * authenticator app). The server's answers show at their fields.
 */
export function ReauthDialog(props: Props) {
  const { open, user, title, text, submitLabel, danger, children, success, onClose } = props;
  const dataProvider = useStackdeckData();
  const [sending, setSending] = useState<Sending>('idle');
  const method = user.two_factor ? (user.two_factor_method ?? 'email') : null;
  const onSubmit = useSubmitHandler<ReauthValues & { otp?: string }>(
    FIELDS,
    async ({ otp, label, password }) => {
      await props.onConfirm({ password, ...(otp ? { otp } : {}), ...(label ? { label } : {}) });
    },
    success,
  );

  const sendCode = async () => {
    setSending('sending');
    try {
      await dataProvider.action('users', 'sendOtp');
      setSending('sent');
    } catch (error) {
      setSending({ failed: errorMessage(error, 'The code could not be sent.') });
    }
  };

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="reauth-title">
      <Form
        defaultValues={{ password: '', otp: '', label: '' }}
        resolver={resolver}
        onSubmit={onSubmit}
        noValidate
      >
        <DialogTitle id="reauth-title">{title}</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>{text}</DialogContentText>
          {children}
          <PasswordInput
            size="medium"
            source="password"
            label="Your password"
            autoComplete="current-password"
            fullWidth
          />
          {method ? (
            <Stack spacing={1}>
              <Stack
                direction={{ xs: 'column', sm: 'row' }}
                spacing={2}
                sx={{ alignItems: 'flex-start' }}
              >
                <Box sx={{ width: { xs: '100%', sm: 240 } }}>
                  <TextInput
                    source="otp"
                    label={
                      method === 'totp' ? 'Code from your authenticator app' : 'Code from the mail'
                    }
                    parse={keepText}
                    autoComplete="one-time-code"
                    slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 6 } }}
                    fullWidth
                  />
                </Box>
                {method === 'email' ? (
                  <Box sx={{ pt: { sm: 1 } }}>
                    <Button
                      onClick={() => void sendCode()}
                      disabled={sending === 'sending'}
                      sx={{ whiteSpace: 'nowrap' }}
                    >
                      {sending === 'sent' ? 'Send another code' : 'Mail me a code'}
                    </Button>
                  </Box>
                ) : null}
              </Stack>
              {sending === 'sent' ? (
                <Alert severity="info" role="status">
                  We sent a 6-digit code to {user.email}. It is valid for 15 minutes.
                </Alert>
              ) : typeof sending === 'object' ? (
                <Alert severity="error">{sending.failed}</Alert>
              ) : null}
            </Stack>
          ) : null}
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={onClose}>Cancel</Button>
          <SaveButton
            label={submitLabel}
            icon={<></>}
            color={danger ? 'error' : 'primary'}
            alwaysEnable
          />
        </DialogActions>
      </Form>
    </Dialog>
  );
}
