import type { ReactNode } from 'react';
import { Box } from '@mui/material';
import type { RaRecord } from 'ra-core';
import { Create } from 'ra-ui-materialui';
import { GenericForm, type GenericFormProps } from './GenericForm';
import { PageHeader } from './PageHeader';
import { useSaveOutcome } from './saveOutcome';

export interface GenericCreateProps extends Omit<GenericFormProps, 'mode'> {
  title?: string;
  description?: ReactNode;
  /** Where to go after creating: the spec's path for the new record or its list. */
  redirectTo?: (record: RaRecord) => string;
  /** Where to go when the server refused the record but keeps it as failed (422). */
  failedTo?: string;
  /** How messages name the record ("The cron job"); the resource's label by default. */
  noun?: string;
  /** Shown between the heading and the form. */
  before?: ReactNode;
  /** Values the page adds to what the form sends (a child app's parent and user). */
  transform?: (data: Record<string, unknown>) => Record<string, unknown>;
}

/**
 * A resource's create page from its declaration, written through react-admin's create
 * controller (useCreate), so every list of the resource follows. Path values such as `sid`
 * go in `meta`.
 */
export function GenericCreate({
  resource,
  title,
  description,
  redirectTo,
  failedTo,
  noun,
  before,
  meta,
  transform,
  ...form
}: GenericCreateProps) {
  const outcome = useSaveOutcome({
    resource,
    mode: 'create',
    noun: noun ?? resource.label,
    redirectTo: redirectTo as ((record: Record<string, unknown>) => string) | undefined,
    failedTo,
  });
  return (
    <Box>
      <PageHeader title={title ?? `New ${resource.label}`} description={description} />
      {before}
      <Create
        resource={resource.name}
        title={false}
        actions={false}
        redirect={false}
        transform={transform}
        mutationOptions={{ meta, ...outcome }}
      >
        <GenericForm resource={resource} mode="create" meta={meta} {...form} />
      </Create>
    </Box>
  );
}
