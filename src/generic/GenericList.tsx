import type { ReactNode } from 'react';
import { Box } from '@mui/material';
import { FormMetaContext } from './formMeta';
import { GenericListBody, type GenericListBodyProps } from './GenericListBody';
import { PageHeader } from './PageHeader';

export type { ExtraColumn } from './GenericListBody';

export interface GenericListProps extends GenericListBodyProps {
  /** Page heading; the resource's label by default. */
  title?: string;
  description?: ReactNode;
  /** Buttons beside the heading. */
  actions?: ReactNode;
  /** Shown between the heading and the list (a card of the same page). */
  before?: ReactNode;
}

/**
 * A resource's list page from its declaration: a heading (the resource's label, or the page's
 * title), what the page puts before the list, and the list itself (GenericListBody: columns,
 * filters, paging, empty state, status column, row actions).
 */
export function GenericList({ title, description, actions, before, ...body }: GenericListProps) {
  const heading = title ?? body.resource.label;
  return (
    <FormMetaContext.Provider value={body.meta ?? {}}>
      <Box>
        <PageHeader title={heading} description={description} actions={actions} />
        {before}
        <GenericListBody label={heading} {...body} />
      </Box>
    </FormMetaContext.Provider>
  );
}
