import { Button, Stack } from '@mui/material';
import Casino from '@mui/icons-material/Casino';
import { TextInput } from 'ra-ui-materialui';
import { useFormContext, useWatch } from 'react-hook-form';
import { CopyButton } from '../../generic/CopyButton';
import { generatePassword } from './passwords';

/** A password input with a generator (36 random characters) and a copy button. */
export function PasswordWithGenerator({ source = 'password', label = 'Password' }) {
  const { setValue } = useFormContext();
  const value = (useWatch({ name: source }) as string | undefined) ?? '';
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
      <TextInput
        size="medium"
        source={source}
        label={label}
        autoComplete="new-password"
        helperText="At least 12 characters, no colons. Generate one and keep it somewhere safe."
        slotProps={{ htmlInput: { spellCheck: false, style: { fontFamily: 'monospace' } } }}
        fullWidth
      />
      <Stack direction="row" sx={{ pt: 1.5, alignItems: 'center', flexShrink: 0 }}>
        <Button
          size="small"
          startIcon={<Casino />}
          onClick={() =>
            setValue(source, generatePassword(), { shouldDirty: true, shouldValidate: true })
          }
        >
          Generate
        </Button>
        {value ? <CopyButton value={value} label="Copy the password" /> : null}
      </Stack>
    </Stack>
  );
}
