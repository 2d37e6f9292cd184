import { useState } from 'react';
import { Box, Stack } from '@mui/material';
import LockOutlined from '@mui/icons-material/LockOutlined';
import { Form } from 'ra-core';
import { PasswordInput, SaveButton } from 'ra-ui-materialui';
import { z } from 'zod';
import { type User, type UserUpdate, userUpdate } from '../../resources/user-profile';
import { password } from '../../resources/user-security';
import { schemaResolver } from '../../src/generic/schemaResolver';
import { SectionCard } from '../../src/generic/SectionCard';
import { useSubmitHandler } from '../../src/generic/useSubmitHandler';
import { ActingNotice } from '../../src/pages/account/ActingNotice';

/** The declared rules for both passwords, plus the typing check that only the form needs. */
const passwordForm = z
  .object({
    current_password: userUpdate.shape.current_password
      .unwrap()
      .min(1, 'Enter your current password'),
    password,
    confirmation: z.string(),
  })
  .refine((values) => values.password === values.confirmation, {
    path: ['confirmation'],
    message: 'The two passwords differ',
  });
type PasswordForm = z.infer<typeof passwordForm>;

const FIELDS = ['current_password', 'password', 'confirmation'];
const resolver = schemaResolver(passwordForm);
const EMPTY = { current_password: '', password: '', confirmation: '' };

interface Props {
  save: (data: UserUpdate) => Promise<User>;
  acting: boolean;
}

/** Password change: proven by the current password; other sessions are signed out. */
export function PasswordCard({ save, acting }: Props) {
  // A new key empties the form after a successful change.
  const [generation, setGeneration] = useState(0);
  const onSubmit = useSubmitHandler<PasswordForm>(
    FIELDS,
    async ({ current_password, password: next }) => {
      await save({ current_password, password: next });
      setGeneration((n) => n + 1);
    },
    'Password changed. Your other sessions were signed out and your API keys revoked.',
  );

  return (
    <SectionCard
      id="password"
      title="Password"
      subtitle="At least 10 characters. A passphrase is easiest to remember. Changing it signs out your other sessions and revokes every API key."
      icon={LockOutlined}
    >
      {acting ? <ActingNotice only="change the password" /> : null}
      <Form
        key={generation}
        defaultValues={EMPTY}
        resolver={resolver}
        onSubmit={onSubmit}
        disabled={acting}
        noValidate
      >
        <PasswordInput
          // react-admin makes password inputs small; the panel's inputs are all one size.
          size="medium"
          source="current_password"
          label="Current password"
          autoComplete="current-password"
          fullWidth
        />
        <PasswordInput
          size="medium"
          source="password"
          label="New password"
          autoComplete="new-password"
          fullWidth
        />
        <PasswordInput
          size="medium"
          source="confirmation"
          label="Repeat the new password"
          autoComplete="new-password"
          fullWidth
        />
        <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
          <Box>
            <SaveButton label="Change password" icon={<LockOutlined />} disabled={acting} />
          </Box>
        </Stack>
      </Form>
    </SectionCard>
  );
}
