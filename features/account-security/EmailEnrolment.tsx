import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Stack, Typography } from '@mui/material';
import type { User, UserUpdate } from '../../resources/user-profile';
import { errorMessage } from '../../src/generic/serverErrors';
import { useStackdeckData } from '../../src/hooks';
import { CodeForm } from './CodeForm';

interface Props {
  email: string;
  save: (data: UserUpdate) => Promise<User>;
  onDone: () => void;
}

type Sending = { state: 'sending' } | { state: 'sent' } | { state: 'failed'; message: string };

/** A code is mailed now; typing it back proves the mailbox works before sign-ins need it. */
export function EmailEnrolment({ email, save, onDone }: Props) {
  const dataProvider = useStackdeckData();
  const [sending, setSending] = useState<Sending>({ state: 'sending' });
  const sentOnce = useRef(false);

  const send = async () => {
    setSending({ state: 'sending' });
    try {
      await dataProvider.action('users', 'sendOtp');
      setSending({ state: 'sent' });
    } catch (error) {
      setSending({ state: 'failed', message: errorMessage(error, 'The code could not be sent.') });
    }
  };

  useEffect(() => {
    // Once, on mount (so `send` is no dependency); strict mode mounts twice in development,
    // and one mail is enough.
    if (sentOnce.current) return;
    sentOnce.current = true;
    void send();
  }, []);

  return (
    <Stack spacing={2}>
      {sending.state === 'failed' ? (
        <Alert severity="error">{sending.message}</Alert>
      ) : (
        <Typography variant="body2" role="status">
          {sending.state === 'sending'
            ? 'Sending a code…'
            : `We sent a 6-digit code to ${email}. It is valid for 15 minutes.`}
        </Typography>
      )}
      <CodeForm
        label="Code from the mail"
        submitLabel="Turn on"
        success="Two-factor sign-in is on"
        onCancel={onDone}
        onCode={async (values) => {
          await save({ two_factor: true, two_factor_method: 'email', ...values });
          onDone();
        }}
      />
      <div>
        <Button size="small" onClick={() => void send()} disabled={sending.state === 'sending'}>
          Send a new code
        </Button>
      </div>
    </Stack>
  );
}
