import { Dialog, DialogActions, DialogContent, DialogTitle, Button } from '@mui/material';
import { Form } from 'ra-core';
import { SaveButton } from 'ra-ui-materialui';
import { z } from 'zod';
import { systemUserPassword } from '../../../resources/agent/validators';
import type { Sysuser } from '../../../resources/sysusers';
import { schemaResolver } from '../../generic/schemaResolver';
import { useSubmitHandler } from '../../generic/useSubmitHandler';
import { useStackdeckData } from '../../hooks';
import { PasswordWithGenerator } from './PasswordWithGenerator';

/** The declared update body of a system user (its password). */
const passwordBody = z.object({ password: systemUserPassword });
const resolver = schemaResolver(passwordBody);
const FIELDS = ['password'];

interface Props {
  sid: number;
  user: Sysuser | null;
  onClose: () => void;
}

/** A new password for a system user, typed or generated. */
export function ChangePasswordDialog({ sid, user, onClose }: Props) {
  const dp = useStackdeckData();
  const onSubmit = useSubmitHandler<z.infer<typeof passwordBody>>(
    FIELDS,
    async (values) => {
      if (!user) return;
      await dp.update('sysusers', { id: user.id, data: values, previousData: user, meta: { sid } });
      onClose();
    },
    'Password changed.',
  );
  return (
    <Dialog open={user !== null} onClose={onClose} fullWidth maxWidth="sm">
      <Form defaultValues={{ password: '' }} resolver={resolver} onSubmit={onSubmit} noValidate>
        <DialogTitle>New password for {user?.user_name}</DialogTitle>
        <DialogContent>
          <PasswordWithGenerator label="New password" />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>Cancel</Button>
          <SaveButton label="Change password" />
        </DialogActions>
      </Form>
    </Dialog>
  );
}
