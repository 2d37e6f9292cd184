import { Box, Stack } from '@mui/material';
import { Form } from 'ra-core';
import { PasswordInput, SaveButton } from 'ra-ui-materialui';
import { z } from 'zod';
import { type User, type UserUpdate, userUpdate } from '../../resources/user-profile';
import { schemaResolver } from '../../src/generic/schemaResolver';
import { useSubmitHandler } from '../../src/generic/useSubmitHandler';

const disableForm = z.object({
  current_password: userUpdate.shape.current_password
    .unwrap()
    .min(1, 'Enter your password to turn it off'),
});
const resolver = schemaResolver(disableForm);
const FIELDS = ['current_password'];

interface Props {
  save: (data: UserUpdate) => Promise<User>;
  disabled: boolean;
}

/** Turning the second factor off takes the password, so a stolen session cannot. */
export function DisableTwoFactor({ save, disabled }: Props) {
  const onSubmit = useSubmitHandler<z.infer<typeof disableForm>>(
    FIELDS,
    ({ current_password }) => save({ two_factor: false, current_password }),
    'Two-factor sign-in is off',
  );
  return (
    <Form
      defaultValues={{ current_password: '' }}
      resolver={resolver}
      onSubmit={onSubmit}
      disabled={disabled}
      noValidate
    >
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: 'flex-start' }}>
        <Box sx={{ flex: 1, width: '100%' }}>
          <PasswordInput
            // react-admin makes password inputs small; the panel's inputs are all one size.
            size="medium"
            source="current_password"
            label="Current password"
            autoComplete="current-password"
            fullWidth
          />
        </Box>
        <Box sx={{ pt: { sm: 1 } }}>
          <SaveButton label="Turn off" color="error" icon={<></>} disabled={disabled} />
        </Box>
      </Stack>
    </Form>
  );
}
