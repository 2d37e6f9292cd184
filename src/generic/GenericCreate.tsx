import { Box } from '@mui/material';
import type { RaRecord } from 'ra-core';
import { Create } from 'ra-ui-materialui';
import { GenericForm, type GenericFormProps } from './GenericForm';
import { PageHeader } from './PageHeader';

export interface GenericCreateProps extends GenericFormProps {
  title?: string;
  /** Where to go after creating: the spec's path for the new record or its list. */
  redirectTo?: (record: RaRecord) => string;
  /** Path values such as `sid` for nested resources. */
  meta?: Record<string, unknown>;
}

export function GenericCreate({ resource, title, redirectTo, meta, ...form }: GenericCreateProps) {
  return (
    <Box>
      <PageHeader title={title ?? `New ${resource.label}`} />
      <Create
        resource={resource.name}
        title={false}
        actions={false}
        mutationOptions={meta ? { meta } : undefined}
        redirect={redirectTo ? (_resource, _id, data) => redirectTo(data as RaRecord) : false}
      >
        <GenericForm resource={resource} {...form} />
      </Create>
    </Box>
  );
}
