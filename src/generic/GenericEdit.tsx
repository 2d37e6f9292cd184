import { Box } from '@mui/material';
import type { RaRecord } from 'ra-core';
import { Edit } from 'ra-ui-materialui';
import { GenericForm, type GenericFormProps } from './GenericForm';
import { PageHeader } from './PageHeader';

export interface GenericEditProps extends GenericFormProps {
  title?: string;
  /** The record id; by default the route's `:id`. */
  id?: string | number;
  redirectTo?: (record: RaRecord) => string;
  meta?: Record<string, unknown>;
}

/**
 * Pessimistic on purpose: the server validates and may answer 400 with field errors, which
 * must land on the inputs with everything typed still there, not after an optimistic undo.
 */
export function GenericEdit({ resource, title, id, redirectTo, meta, ...form }: GenericEditProps) {
  return (
    <Box>
      <PageHeader title={title ?? `Edit ${resource.label}`} />
      <Edit
        resource={resource.name}
        id={id}
        title={false}
        actions={false}
        mutationMode="pessimistic"
        queryOptions={meta ? { meta } : undefined}
        mutationOptions={meta ? { meta } : undefined}
        redirect={redirectTo ? (_resource, _id, data) => redirectTo(data as RaRecord) : false}
      >
        <GenericForm resource={resource} {...form} />
      </Edit>
    </Box>
  );
}
