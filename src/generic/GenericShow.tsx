import type { ReactNode } from 'react';
import { Box, Card, CardContent, Typography } from '@mui/material';
import { type RaRecord, useRecordContext } from 'ra-core';
import { Show } from 'ra-ui-materialui';
import type { z } from 'zod';
import type { ResourceDef } from '../../resources/define';
import { ValueCell } from './cells';
import { fieldLabel } from './labels';
import { PageHeader } from './PageHeader';
import { columnKindOf } from './zodFields';

export interface GenericShowProps {
  resource: ResourceDef;
  /** Heading from the record (its `recordRepresentation` field by default). */
  title?: (record: RaRecord | undefined) => string;
  fields?: readonly string[];
  labels?: Record<string, string>;
  render?: Record<string, (record: RaRecord) => ReactNode>;
  /** Shown below the fields: a body, a preview. */
  children?: ReactNode;
  actions?: ReactNode;
  id?: string | number;
  meta?: Record<string, unknown>;
}

function ShowHeader({
  resource,
  title,
  actions,
}: Pick<GenericShowProps, 'resource' | 'title' | 'actions'>) {
  const record = useRecordContext();
  const field = resource.ui?.recordRepresentation;
  const fallback = record && field ? String(record[field] ?? '') : resource.label;
  return (
    <PageHeader title={title ? title(record) : fallback || resource.label} actions={actions} />
  );
}

/** A record's detail page: every declared field (or `fields`) as labelled values. */
export function GenericShow(props: GenericShowProps) {
  const { resource, labels = {}, render = {} } = props;
  const shape = resource.schema.shape as Record<string, z.ZodType>;
  const fields = props.fields ?? Object.keys(shape);
  return (
    <Show
      resource={resource.name}
      id={props.id}
      title={false}
      actions={false}
      queryOptions={props.meta ? { meta: props.meta } : undefined}
      component={Box}
      sx={{ '& .RaShow-noActions': { mt: 0 } }}
    >
      <ShowHeader resource={resource} title={props.title} actions={props.actions} />
      <Card variant="outlined">
        <CardContent
          sx={{
            display: 'grid',
            gridTemplateColumns: {
              xs: '1fr',
              sm: 'repeat(2, minmax(0, 1fr))',
              md: 'repeat(3, minmax(0, 1fr))',
            },
            gap: 2.5,
          }}
        >
          {fields.map((name) => {
            const label = labels[name] ?? fieldLabel(name);
            return (
              <Box key={name} sx={{ minWidth: 0 }}>
                <Typography variant="caption" color="text.secondary" component="div">
                  {label}
                </Typography>
                <FieldValue
                  name={name}
                  label={label}
                  kind={columnKindOf(name, shape[name])}
                  custom={render[name]}
                />
              </Box>
            );
          })}
        </CardContent>
      </Card>
      {props.children}
    </Show>
  );
}

function FieldValue({
  name,
  label,
  kind,
  custom,
}: {
  name: string;
  label: string;
  kind: ReturnType<typeof columnKindOf>;
  custom?: (record: RaRecord) => ReactNode;
}) {
  const record = useRecordContext();
  if (!record) return <Typography variant="body2">…</Typography>;
  return custom ? custom(record) : <ValueCell kind={kind} value={record[name]} label={label} />;
}
