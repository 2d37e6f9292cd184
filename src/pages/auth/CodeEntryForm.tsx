import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useTranslate } from 'ra-core';
import { type ReactNode, useState } from 'react';
import { codeBody } from '../../../resources/user-security';
import { CodeField } from './fields';
import { FormAlert } from './FormAlert';
import { applyServerErrors } from './formErrors';
import { SubmitButton } from './SubmitButton';
import { useSchemaForm } from './useSchemaForm';

interface CodeEntryFormProps {
  /** Above the field: where the code came from. */
  info?: ReactNode;
  submitLabel: string;
  /** Sends the code; a refusal's message lands on the field (sign-in names it `otp`). */
  onCode: (code: string) => Promise<unknown>;
  /** Sends a new code; without it there is no resend button. */
  onResend?: () => Promise<unknown>;
  resendLabel?: string;
}

/** The 6-digit code step of confirmation, second-factor sign-in and password reset. */
export function CodeEntryForm({
  info,
  submitLabel,
  onCode,
  onResend,
  resendLabel,
}: CodeEntryFormProps) {
  const translate = useTranslate();
  const [alert, setAlert] = useState<string | null>(null);
  const [resending, setResending] = useState(false);
  const { control, handleSubmit, setError, formState } = useSchemaForm(codeBody, { code: '' });

  const onSubmit = handleSubmit(async ({ code }) => {
    setAlert(null);
    try {
      await onCode(code);
    } catch (error) {
      setAlert(applyServerErrors(error, setError, ['code'], { otp: 'code' }));
    }
  });

  const resend = async () => {
    if (!onResend) return;
    setResending(true);
    setAlert(null);
    try {
      await onResend();
    } catch (error) {
      setAlert(applyServerErrors(error, setError, []));
    } finally {
      setResending(false);
    }
  };

  return (
    <form onSubmit={onSubmit} noValidate>
      {info}
      <FormAlert message={alert} />
      <CodeField
        control={control}
        name="code"
        label={translate('auth.fields.code')}
        autoFocus
        required
      />
      <SubmitButton busy={formState.isSubmitting}>{submitLabel}</SubmitButton>
      {onResend && (
        <Box sx={{ textAlign: 'center', mt: 1.5 }}>
          <Button onClick={resend} disabled={resending}>
            {resendLabel}
          </Button>
        </Box>
      )}
    </form>
  );
}
