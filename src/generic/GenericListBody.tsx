import { createContext, forwardRef, type MouseEvent, type ReactNode, useContext } from 'react';
import { Card, IconButton, Stack, Tooltip } from '@mui/material';
import EditOutlined from '@mui/icons-material/EditOutlined';
import { Link } from 'react-router-dom';
import { type RaRecord, useRecordContext } from 'ra-core';
import {
  DataTable,
  DataTableBody,
  type DataTableBodyProps,
  DataTableRow,
  type DataTableRowProps,
  List,
} from 'ra-ui-materialui';
import type { z } from 'zod';
import type { ResourceDef } from '../../resources/define';
import { ValueCell } from './cells';
import { ConfirmDeleteButton, type DeleteOption, type DeleteVerb } from './ConfirmDeleteButton';
import { FormMetaContext } from './formMeta';
import { EmptyState, type EmptyStateProps } from './EmptyState';
import { isManaged, labelOf, recordName, waiting } from './formModel';
import { StatusCell } from './StatusCell';
import { NoMatches } from './NoMatches';
import { schemaFilters } from './schemaFilters';
import { columnKindOf } from './zodFields';

export interface ExtraColumn {
  key: string;
  label: string;
  /** Right by default (buttons); left for text. */
  align?: 'left' | 'right';
  render: (record: RaRecord) => ReactNode;
}

export interface GenericListBodyProps {
  resource: ResourceDef;
  /** The table's accessible name; the resource's label by default. */
  label?: string;
  /** Columns in order; `ui.listFields` by default. */
  columns?: readonly string[];
  labels?: Record<string, string>;
  /** Custom cells for some columns; the rest follow the schema. */
  render?: Record<string, (record: RaRecord) => ReactNode>;
  /** Columns that are not fields (live state, row buttons), after the fields, before Actions. */
  extraColumns?: readonly ExtraColumn[];
  /** Filter labels besides the declared `ui.labels`. */
  filterLabels?: Record<string, string>;
  /** Which declared filters the list shows (all by default; `sync` is the page's own button). */
  filterFields?: readonly string[];
  /** Labels of enum values in filter selects, per filter. */
  filterChoiceLabels?: Record<string, Record<string, string>>;
  searchPlaceholder?: string;
  /** Where a row leads: the spec's path, never react-admin's `/resource/:id`. */
  rowLink?: (record: RaRecord) => string;
  empty?: EmptyStateProps;
  perPage?: number;
  /** The first order; the first of `ops.list.sort`, newest first, by default. */
  sort?: { field: string; order: 'ASC' | 'DESC' };
  /** Fixed filter (a path value such as `sid`, or a permanent query such as `sync`). */
  filter?: Record<string, unknown>;
  /** Path values (`sid`) of the list and of its row actions. */
  meta?: Record<string, unknown>;
  /** A row's edit page (the spec's path): an Edit button per row. */
  editLink?: (record: RaRecord) => string;
  /**
   * A Delete button per row, behind a dialog naming the record (needs a declared delete):
   * `true`, or how to name the record (`what` in the dialog, `name` in the button's own name),
   * the button's verb (Remove for a thing taken off rather than destroyed), what deleting
   * does, and a choice the dialog offers for the record (delete its folder too).
   */
  deletable?:
    | boolean
    | {
        what?: (record: RaRecord) => string;
        name?: (record: RaRecord) => string;
        verb?: DeleteVerb;
        consequence?: (record: RaRecord) => string;
        option?: (record: RaRecord) => DeleteOption;
      };
  /** Buttons of a row before Edit and Delete (a resource's own actions). */
  rowActions?: (record: RaRecord) => ReactNode;
  /** Edit and Delete are off: for every row (the server is offline, say), or for some. */
  actionsDisabled?: boolean | ((record: RaRecord) => boolean);
  /**
   * How often a server-managed list is read again while a row waits for the server (pending,
   * deleting), so it settles by itself; never while none waits. 5 s by default.
   */
  settleInterval?: number;
}

/**
 * A row's test id, from the declaration: the resource's name in the singular and the record's
 * `ui.recordRepresentation` (`sysuser-alice`, `pubkey-laptop`; `#12` without one).
 */
export function rowTestId(resource: ResourceDef, record: Record<string, unknown>): string {
  return `${resource.name.replace(/s$/, '')}-${recordName(resource, record)}`;
}

/** The resource of the rows, for their test ids. */
const RowResource = createContext<ResourceDef | null>(null);

/** react-admin's row with its test id on it. */
const Row = forwardRef<HTMLTableRowElement, DataTableRowProps>(function Row(props, ref) {
  const record = useRecordContext();
  const resource = useContext(RowResource);
  return (
    <DataTableRow
      ref={ref}
      {...props}
      data-testid={record && resource ? rowTestId(resource, record) : undefined}
    />
  );
});

function Body(props: DataTableBodyProps) {
  return <DataTableBody {...props} row={Row} />;
}

/**
 * A resource's list from its declaration, without a page around it (GenericList is the page;
 * a card of a page such as a server's system users uses this alone): columns from
 * `ui.listFields` labelled by `ui.labels`, sortable columns from `ops.list.sort` (newest first),
 * filters from `ops.list.filters`, paging, empty state; for a server-managed resource a status
 * column (pending, active, failed with the server's reason, drift after a check), read again
 * while a row waits; row actions (edit, delete behind a confirmation, through react-admin's
 * useDelete so every list follows); a test id per row from the record's representation.
 * The URL stays the spec's path: list state is kept in the page, not the location.
 */
export function GenericListBody(props: GenericListBodyProps) {
  const { resource, labels = {}, render = {}, extraColumns = [] } = props;
  const list = resource.ops.list;
  if (!list) throw new Error(`${resource.name} declares no list operation`);
  const shape = resource.schema.shape as Record<string, z.ZodType>;
  const declared = props.columns ?? resource.ui?.listFields ?? Object.keys(shape);
  const managed = isManaged(resource);
  const columns = managed && !declared.includes('status') ? [...declared, 'status'] : declared;
  const { editLink, deletable, meta, actionsDisabled } = props;
  const canDelete = Boolean(deletable && resource.ops.delete);
  const deleteOptions = typeof deletable === 'object' ? deletable : {};
  const whatOf = (record: RaRecord) =>
    deleteOptions.what?.(record) ??
    `${resource.label.replace(/s$/, '').toLowerCase()} ${recordName(resource, record)}`;
  const disabledFor = (record: RaRecord) =>
    typeof actionsDisabled === 'function' ? actionsDisabled(record) : Boolean(actionsDisabled);
  const sortable = list.sort ?? [];
  const sort = props.sort ?? (sortable[0] ? { field: sortable[0], order: 'DESC' } : undefined);
  const filters = schemaFilters(list.filters, {
    labels: { ...resource.ui?.labels, ...props.filterLabels },
    widgets: resource.ui?.widgets,
    only: props.filterFields,
    choiceLabels: props.filterChoiceLabels,
    searchPlaceholder: props.searchPlaceholder,
  });
  const rowLink = props.rowLink;

  return (
    <FormMetaContext.Provider value={meta ?? {}}>
      <RowResource.Provider value={resource}>
        <List
          resource={resource.name}
          title={false}
          actions={false}
          exporter={false}
          disableSyncWithLocation
          storeKey={false}
          perPage={props.perPage ?? 25}
          filter={props.filter}
          queryOptions={{
            meta,
            ...(managed
              ? {
                  refetchInterval: (query: { state: { data?: { data?: RaRecord[] } } }) =>
                    waiting(query.state.data?.data) ? (props.settleInterval ?? 5_000) : false,
                }
              : {}),
          }}
          filters={filters.length ? filters : undefined}
          sort={sort}
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
            aria-label={props.label ?? resource.label}
            bulkActionButtons={false}
            body={Body}
            empty={<NoMatches />}
            rowClick={rowLink ? (_id, _resource, record) => rowLink(record) : false}
            sx={{ '& .RaDataTable-headerCell': { fontWeight: 600, whiteSpace: 'nowrap' } }}
          >
            {columns.map((name) => {
              const label = labelOf(resource, name, labels);
              const kind = columnKindOf(name, shape[name]);
              const custom =
                render[name] ??
                (managed && name === 'status'
                  ? (record: RaRecord) => <StatusCell record={record} />
                  : undefined);
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
                align={column.align ?? 'right'}
                render={column.render}
              />
            ))}
            {editLink || canDelete || props.rowActions ? (
              <DataTable.Col
                key="row-actions"
                label="Actions"
                disableSort
                align="right"
                render={(record: RaRecord) => (
                  <Stack
                    direction="row"
                    spacing={0.5}
                    sx={{ justifyContent: 'flex-end', alignItems: 'center' }}
                    // A row may lead somewhere; its buttons and their dialog (a portal) do not.
                    onClick={(event: MouseEvent) => event.stopPropagation()}
                  >
                    {props.rowActions?.(record)}
                    {editLink ? (
                      <Tooltip title={`Edit ${whatOf(record)}`}>
                        <span>
                          <IconButton
                            component={Link}
                            to={editLink(record)}
                            aria-label={`Edit ${whatOf(record)}`}
                            size="small"
                            disabled={disabledFor(record) || record.status === 'deleting'}
                          >
                            <EditOutlined fontSize="small" />
                          </IconButton>
                        </span>
                      </Tooltip>
                    ) : null}
                    {canDelete ? (
                      <ConfirmDeleteButton
                        resource={resource.name}
                        record={record}
                        what={whatOf(record)}
                        name={deleteOptions.name?.(record)}
                        verb={deleteOptions.verb}
                        meta={meta}
                        consequence={deleteOptions.consequence?.(record)}
                        option={deleteOptions.option?.(record)}
                        disabled={disabledFor(record)}
                      />
                    ) : null}
                  </Stack>
                )}
              />
            ) : null}
          </DataTable>
        </List>
      </RowResource.Provider>
    </FormMetaContext.Provider>
  );
}
