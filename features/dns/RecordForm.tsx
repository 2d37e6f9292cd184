import { Button, Stack } from '@mui/material';
import { zodResolver } from '@hookform/resolvers/zod';
import { Form } from 'ra-core';
import { NumberInput, SelectInput, TextInput } from 'ra-ui-materialui';
import { useMemo } from 'react';
import { type FieldValues, type Resolver, useWatch } from 'react-hook-form';
import {
  DNS_RECORD_TYPES,
  type DnsRecord,
  type DnsRecordInput,
  type DnsRecordType,
  dnsRecordInput,
} from './schemas';
import { keepText } from '../../src/generic/SchemaInput';
import { useSubmitHandler } from '../../src/generic/useSubmitHandler';

const FIELDS = [
  'type',
  'name',
  'ttl',
  'content',
  'priority',
  'weight',
  'port',
  'flags',
  'tag',
] as const;

const CONTENT_LABEL: Record<DnsRecordType, string> = {
  A: 'IPv4 address',
  AAAA: 'IPv6 address',
  CNAME: 'Target host',
  MX: 'Mail server',
  TXT: 'Text',
  NS: 'Name server',
  SRV: 'Target host',
  CAA: 'Value (CA domain or iodef address)',
};

const CONTENT_HELP: Record<DnsRecordType, string> = {
  A: 'e.g. 203.0.113.10',
  AAAA: 'e.g. 2001:db8::1',
  CNAME: 'e.g. www.example.com',
  MX: 'e.g. mail.example.com',
  TXT: 'e.g. v=spf1 mx -all',
  NS: 'e.g. ns1.example.net',
  SRV: 'e.g. sip.example.com',
  CAA: 'e.g. letsencrypt.org',
};

/** The record's fields as the form holds them. */
export function formValuesOf(record?: DnsRecord): FieldValues {
  if (!record)
    return {
      type: 'A',
      name: '',
      ttl: 3600,
      content: '',
      priority: 10,
      weight: 5,
      port: null,
      flags: 0,
      tag: 'issue',
    };
  return {
    type: record.type,
    name: record.name,
    ttl: record.ttl,
    content: record.content,
    priority: record.priority ?? 10,
    weight: record.weight ?? 5,
    port: record.port,
    flags: record.flags ?? 0,
    tag: record.tag ?? 'issue',
  };
}

/** Empty number inputs are "not given": the type's schema then says what is required. */
const resolver: Resolver<FieldValues> = (values, context, options) =>
  (zodResolver(dnsRecordInput as never) as unknown as Resolver<FieldValues>)(
    Object.fromEntries(Object.entries(values).filter(([, v]) => v !== null && v !== undefined)),
    context,
    options,
  );

function TypeFields({ autoFocus }: { autoFocus: boolean }) {
  const type = (useWatch({ name: 'type' }) as DnsRecordType | undefined) ?? 'A';
  return (
    <>
      <SelectInput
        source="type"
        label="Type"
        choices={DNS_RECORD_TYPES.map((t) => ({ id: t, name: t }))}
        helperText={false}
        autoFocus={autoFocus}
      />
      <TextInput
        source="name"
        label="Name"
        parse={keepText}
        fullWidth
        helperText="@ for the domain itself, or www, mail, _sip._tcp…"
      />
      {type === 'CAA' ? (
        <Stack direction="row" spacing={2}>
          <NumberInput source="flags" label="Flags" min={0} max={255} step={1} helperText={false} />
          <SelectInput
            source="tag"
            label="Tag"
            choices={['issue', 'issuewild', 'iodef'].map((t) => ({ id: t, name: t }))}
            helperText={false}
          />
        </Stack>
      ) : null}
      {type === 'MX' || type === 'SRV' ? (
        <Stack direction="row" spacing={2}>
          <NumberInput
            source="priority"
            label="Priority"
            min={0}
            max={65535}
            step={1}
            helperText={false}
          />
          {type === 'SRV' ? (
            <>
              <NumberInput
                source="weight"
                label="Weight"
                min={0}
                max={65535}
                step={1}
                helperText={false}
              />
              <NumberInput
                source="port"
                label="Port"
                min={0}
                max={65535}
                step={1}
                helperText={false}
              />
            </>
          ) : null}
        </Stack>
      ) : null}
      <TextInput
        source="content"
        label={CONTENT_LABEL[type]}
        parse={keepText}
        fullWidth
        helperText={CONTENT_HELP[type]}
      />
      <NumberInput
        source="ttl"
        label="TTL (seconds)"
        min={60}
        max={86400}
        step={1}
        helperText={false}
      />
    </>
  );
}

/** Add or change a record: fields follow the type, each type checked by its own schema. */
export function RecordForm({
  record,
  submitLabel,
  save,
  onCancel,
}: {
  record?: DnsRecord;
  submitLabel: string;
  save: (values: DnsRecordInput) => Promise<unknown>;
  onCancel?: () => void;
}) {
  const defaults = useMemo(() => formValuesOf(record), [record]);
  const onSubmit = useSubmitHandler<DnsRecordInput>(FIELDS, save, null);
  return (
    <Form defaultValues={defaults} resolver={resolver} onSubmit={onSubmit} noValidate>
      <Stack sx={{ maxWidth: 560 }}>
        <TypeFields autoFocus={!record} />
        <Stack direction="row" spacing={1} sx={{ mt: 1 }}>
          <Button type="submit" variant="contained">
            {submitLabel}
          </Button>
          {onCancel ? <Button onClick={onCancel}>Cancel</Button> : null}
        </Stack>
      </Stack>
    </Form>
  );
}
