import type { ReactNode } from 'react';
import { Box, Card } from '@mui/material';
import type { RaRecord } from 'ra-core';
import { DataTable, List } from 'ra-ui-materialui';
import type { z } from 'zod';
import type { ResourceDef } from '../../resources/define';
import { ValueCell } from './cells';
import { EmptyState, type EmptyStateProps } from './EmptyState';
import { fieldLabel } from './labels';
import { NoMatches } from './NoMatches';
import { PageHeader } from './PageHeader';
import { schemaFilters } from './schemaFilters';
import { columnKindOf } from './zodFields';

export interface ExtraColumn {
  key: string;
  label: string;
  render: (record: RaRecord) => ReactNode;
}

export interface GenericListProps {
  resource: ResourceDef;
  /** Page heading; the resource's label by default. */
  title?: string;
  description?: ReactNode;
  /** Columns in order; `ui.listFields` by default. */
  columns?: readonly string[];
  labels?: Record<string, string>;
  /** Custom cells for some columns; the rest follow the schema. */
  render?: Record<string, (record: RaRecord) => ReactNode>;
  /** Columns that are not fields, after the others (row buttons). */
  extraColumns?: readonly ExtraColumn[];
  filterLabels?: Record<string, string>;
  /** Labels of enum values in filter selects, per filter. */
  filterChoiceLabels?: Record<string, Record<string, string>>;
  searchPlaceholder?: string;
  /** Where a row leads: the spec's path, never react-admin's `/resource/:id`. */
  rowLink?: (record: RaRecord) => string;
  /** Buttons beside the heading. */
  actions?: ReactNode;
  /** Shown between the heading and the list (a card of the same page). */
  before?: ReactNode;
  empty?: EmptyStateProps;
  perPage?: number;
  /** Fixed filter (a path value such as `sid`, or a permanent query). */
  filter?: Record<string, unknown>;
}

/**
 * A resource's list page from its declaration: columns from `ui.listFields`, sortable columns
 * from `ops.list.sort` (newest first), filters from `ops.list.filters`, paging, empty state.
 * The URL stays the spec's path: list state is kept in the page, not the location.
 */
export function GenericList(props: GenericListProps) {
  const { resource, labels = {}, render = {}, extraColumns = [] } = props;
  const list = resource.ops.list;
  if (!list) throw new Error(`${resource.name} declares no list operation`);
  const shape = resource.schema.shape as Record<string, z.ZodType>;
  const columns = props.columns ?? resource.ui?.listFields ?? Object.keys(shape);
  const sortable = list.sort ?? [];
  const title = props.title ?? resource.label;
  const filters = schemaFilters(list.filters, {
    labels: props.filterLabels,
    choiceLabels: props.filterChoiceLabels,
    searchPlaceholder: props.searchPlaceholder,
  });
  const rowLink = props.rowLink;

  return (
    <Box>
      <PageHeader title={title} description={props.description} actions={props.actions} />
      {props.before}
      <List
        resource={resource.name}
        title={false}
        actions={false}
        exporter={false}
        disableSyncWithLocation
        storeKey={false}
        perPage={props.perPage ?? 25}
        filter={props.filter}
        filters={filters.length ? filters : undefined}
        sort={sortable[0] ? { field: sortable[0], order: 'DESC' } : undefined}
        empty={
          props.empty ? (
            <Card variant="outlined">
              <EmptyState {...props.empty} />
            </Card>
          ) : (
            false
          )
        }
        sx={{
          // Wide tables scroll inside their card on a phone instead of widening the page.
          '& .RaList-main': { minWidth: 0 },
          '& .RaList-content': { overflowX: 'auto' },
          '& .RaListToolbar-root': { bgcolor: 'transparent' },
          // The heading above already spaces the page; react-admin's filter bar reserves 64px.
          '& .RaFilterForm-root': { minHeight: 'auto', mb: 1 },
        }}
      >
        <DataTable
          bulkActionButtons={false}
          empty={<NoMatches />}
          rowClick={rowLink ? (_id, _resource, record) => rowLink(record) : false}
          sx={{ '& .RaDataTable-headerCell': { fontWeight: 600, whiteSpace: 'nowrap' } }}
        >
          {columns.map((name) => {
            const label = labels[name] ?? fieldLabel(name);
            const kind = columnKindOf(name, shape[name]);
            const custom = render[name];
            return (
              <DataTable.Col
                key={name}
                source={name}
                label={label}
                disableSort={!sortable.includes(name)}
                render={(record: RaRecord) =>
                  custom ? (
                    custom(record)
                  ) : (
                    <ValueCell kind={kind} value={record[name]} label={label} />
                  )
                }
              />
            );
          })}
          {extraColumns.map((column) => (
            <DataTable.Col
              key={column.key}
              label={column.label}
              disableSort
              align="right"
              render={column.render}
            />
          ))}
        </DataTable>
      </List>
    </Box>
  );
}
