import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useTranslate } from 'ra-core';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { loginBody } from '../../../resources/user-security';
import { useStackdeckData } from '../../hooks';
import { FormTextField } from './fields';
import { FormAlert } from './FormAlert';
import { applyServerErrors } from './formErrors';
import { useSchemaForm } from './useSchemaForm';

// Any address an account may have, as at sign-in.
const forgotForm = loginBody.pick({ email: true });

interface ForgotPasswordDialogProps {
  open: boolean;
  /** What the user already typed on the sign-in form. */
  initialEmail: string;
  onClose: () => void;
}

/** "Forgot password?": mails a reset code, then the code page takes over. */
export function ForgotPasswordDialog({ open, initialEmail, onClose }: ForgotPasswordDialogProps) {
  const translate = useTranslate();
  const dataProvider = useStackdeckData();
  const navigate = useNavigate();
  const [alert, setAlert] = useState<string | null>(null);
  const { control, handleSubmit, setError, reset, formState } = useSchemaForm(forgotForm, {
    email: '',
  });

  useEffect(() => {
    if (open) reset({ email: initialEmail });
  }, [open, initialEmail, reset]);

  const onSubmit = handleSubmit(async ({ email }) => {
    setAlert(null);
    try {
      const { id } = await dataProvider.action<{ id: string }>('users', 'forgotPassword', {
        query: { em: email },
      });
      navigate(`/confirm-account-for-password-reset?id=${encodeURIComponent(id)}`);
    } catch (error) {
      setAlert(applyServerErrors(error, setError, ['email'], { em: 'email' }));
    }
  });

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs" aria-labelledby="forgot-title">
      <form onSubmit={onSubmit} noValidate>
        <DialogTitle id="forgot-title" sx={{ fontWeight: 700 }}>
          {translate('auth.forgot.title')}
        </DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 1 }}>{translate('auth.forgot.text')}</DialogContentText>
          <FormAlert message={alert} />
          <FormTextField
            control={control}
            name="email"
            id="forgot-email"
            label={translate('auth.fields.email')}
            type="email"
            autoComplete="email"
            autoFocus
            required
          />
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2.5 }}>
          <Button onClick={onClose}>{translate('auth.forgot.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={formState.isSubmitting}>
            {translate('auth.forgot.submit')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
