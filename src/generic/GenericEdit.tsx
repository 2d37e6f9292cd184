import type { ReactNode } from 'react';
import { Box } from '@mui/material';
import type { RaRecord } from 'ra-core';
import { Edit } from 'ra-ui-materialui';
import { GenericForm, type GenericFormProps } from './GenericForm';
import { PageHeader } from './PageHeader';
import { useSaveOutcome } from './saveOutcome';

export interface GenericEditProps extends Omit<GenericFormProps, 'mode'> {
  title?: string;
  description?: ReactNode;
  /** The record id; by default the route's `:id`. */
  id?: string | number;
  redirectTo?: (record: RaRecord) => string;
  failedTo?: string;
  /** Where to go when the record cannot be read (gone, or never there): its list. */
  missingTo?: string;
  noun?: string;
  before?: ReactNode;
}

/**
 * A resource's edit page from its declaration, through react-admin's edit controller
 * (useGetOne + useUpdate). Pessimistic on purpose: the server validates and may answer 400 with
 * field errors, which must land on the inputs with everything typed still there, not after an
 * optimistic undo.
 */
export function GenericEdit({
  resource,
  title,
  description,
  id,
  redirectTo,
  failedTo,
  missingTo,
  noun,
  before,
  meta,
  ...form
}: GenericEditProps) {
  const outcome = useSaveOutcome({
    resource,
    mode: 'update',
    noun: noun ?? resource.label,
    redirectTo: redirectTo as ((record: Record<string, unknown>) => string) | undefined,
    failedTo,
  });
  return (
    <Box>
      <PageHeader title={title ?? `Edit ${resource.label}`} description={description} />
      {before}
      <Edit
        resource={resource.name}
        id={id}
        title={false}
        actions={false}
        mutationMode="pessimistic"
        redirect={false}
        redirectOnError={missingTo ? () => missingTo : undefined}
        queryOptions={{ meta }}
        mutationOptions={{ meta, ...outcome }}
      >
        <GenericForm resource={resource} mode="update" meta={meta} {...form} />
      </Edit>
    </Box>
  );
}
