import { Button, Stack } from '@mui/material';
import { Form } from 'ra-core';
import { SaveButton, TextInput } from 'ra-ui-materialui';
import { Link } from 'react-router-dom';
import type { z } from 'zod';
import { teamInput } from '../../resources/teams';
import { keepText } from '../../src/generic/SchemaInput';
import { schemaResolver } from '../../src/generic/schemaResolver';
import { useSubmitHandler } from '../../src/generic/useSubmitHandler';

export type TeamName = z.infer<typeof teamInput>;
const resolver = schemaResolver(teamInput);
const FIELDS = ['name'] as const;

/** The team's name, checked with the declared schema; used to create and to rename. */
export function TeamNameForm({
  initial,
  label,
  onSave,
}: {
  initial: string;
  label: string;
  onSave: (values: TeamName) => Promise<unknown>;
}) {
  const onSubmit = useSubmitHandler<TeamName>(FIELDS, onSave, null);
  return (
    <Form defaultValues={{ name: initial }} resolver={resolver} onSubmit={onSubmit} noValidate>
      <TextInput
        source="name"
        label="Team name"
        parse={keepText}
        fullWidth
        autoFocus
        helperText="Members see this name, e.g. the project or the company."
      />
      <Stack direction="row" spacing={1} sx={{ mt: 2, justifyContent: 'flex-end' }}>
        <Button component={Link} to="/team-manager">
          Cancel
        </Button>
        <SaveButton label={label} alwaysEnable />
      </Stack>
    </Form>
  );
}
