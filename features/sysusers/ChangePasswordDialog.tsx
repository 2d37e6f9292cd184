import { Dialog, DialogActions, DialogContent, DialogTitle, Button } from '@mui/material';
import { Form, useUpdate } from 'ra-core';
import { SaveButton } from 'ra-ui-materialui';
import { type Sysuser, sysusers } from './resource';
import { formFields, inputSchemaOf } from '../../src/generic/formModel';
import { SchemaInput } from '../../src/generic/SchemaInput';
import { schemaResolver } from '../../src/generic/schemaResolver';
import { useSubmitHandler } from '../../src/generic/useSubmitHandler';

/** The declared update body of a system user (its password), with its generator widget. */
const passwordBody = inputSchemaOf(sysusers, 'update');
const resolver = schemaResolver(passwordBody);
const INPUTS = formFields(sysusers, 'update', { password: 'New password' });
const FIELDS = INPUTS.map((f) => f.name);

interface Props {
  sid: number;
  user: Sysuser | null;
  onClose: () => void;
}

/**
 * A new password for a system user, typed or generated; through react-admin's useUpdate, so the
 * lists of system users take the row the server answers with.
 */
export function ChangePasswordDialog({ sid, user, onClose }: Props) {
  const [update] = useUpdate();
  const onSubmit = useSubmitHandler<{ password: string }>(
    FIELDS,
    async (values) => {
      if (!user) return;
      await update(
        'sysusers',
        { id: user.id, data: values, previousData: user, meta: { sid } },
        { mutationMode: 'pessimistic', returnPromise: true },
      );
      onClose();
    },
    'Password changed.',
  );
  return (
    <Dialog open={user !== null} onClose={onClose} fullWidth maxWidth="sm">
      <Form defaultValues={{ password: '' }} resolver={resolver} onSubmit={onSubmit} noValidate>
        <DialogTitle>New password for {user?.user_name}</DialogTitle>
        <DialogContent>
          {INPUTS.map((field) => (
            <SchemaInput
              key={field.name}
              field={field}
              resource={sysusers.name}
              schema={passwordBody}
            />
          ))}
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>Cancel</Button>
          <SaveButton label="Change password" />
        </DialogActions>
      </Form>
    </Dialog>
  );
}
