import { Box, Button, Stack } from '@mui/material';
import { Form } from 'ra-core';
import { PasswordInput, SaveButton, TextInput } from 'ra-ui-materialui';
import { z } from 'zod';
import { otpCode } from '../../resources/user-security';
import { keepText } from '../../src/generic/SchemaInput';
import { schemaResolver } from '../../src/generic/schemaResolver';
import { useSubmitHandler } from '../../src/generic/useSubmitHandler';

const codeForm = z.object({
  otp_code: otpCode,
  current_password: z.string().min(1, 'Enter your current password'),
});
export type CodeFormValues = z.infer<typeof codeForm>;
const resolver = schemaResolver(codeForm);
const FIELDS = ['otp_code', 'current_password'];

interface Props {
  label: string;
  submitLabel: string;
  onCode: (values: CodeFormValues) => Promise<unknown>;
  onCancel: () => void;
  success: string;
}

/**
 * The 6-digit code that proves the second factor works, and the password that proves the
 * account holder (not just a stolen session) is switching it on.
 */
export function CodeForm({ label, submitLabel, onCode, onCancel, success }: Props) {
  const onSubmit = useSubmitHandler<CodeFormValues>(FIELDS, onCode, success);
  return (
    <Form
      defaultValues={{ otp_code: '', current_password: '' }}
      resolver={resolver}
      onSubmit={onSubmit}
      noValidate
    >
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: 'flex-start' }}>
        <Box sx={{ width: { xs: '100%', sm: 220 } }}>
          <TextInput
            source="otp_code"
            label={label}
            parse={keepText}
            autoComplete="one-time-code"
            slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 6 } }}
            fullWidth
          />
        </Box>
        <Box sx={{ width: { xs: '100%', sm: 240 } }}>
          <PasswordInput
            source="current_password"
            label="Your password"
            autoComplete="current-password"
            fullWidth
          />
        </Box>
        <Stack direction="row" spacing={1} sx={{ pt: { sm: 1 }, whiteSpace: 'nowrap' }}>
          <SaveButton label={submitLabel} icon={<></>} />
          <Button onClick={onCancel}>Cancel</Button>
        </Stack>
      </Stack>
    </Form>
  );
}
