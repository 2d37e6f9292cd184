/**
 * What the generic pages read from a declaration, as pure functions (unit-tested without a
 * browser): the form's fields with their labels, help and widgets, a reference's choices, a
 * managed record's status, and what to tell the user after a write.
 */
import type { z } from 'zod';
import type { ResourceDef, Widget } from '../../resources/define';
import { fieldLabel } from './labels';
import { type FieldInfo, fieldInfo } from './zodFields';

export interface FormField {
  name: string;
  info: FieldInfo;
  label: string;
  help?: string;
  widget?: Widget;
}

export type FormMode = 'create' | 'update';

/**
 * The schema the generic form writes with: the operation's own body where it declares one
 * (`sysusers` creates with a name, changes only the password), else the declared input, else
 * the record's schema.
 */
export function inputSchemaOf(resource: ResourceDef, mode: FormMode = 'create'): z.ZodObject {
  return resource.ops[mode]?.body ?? resource.input ?? resource.schema;
}

/** The names the form shows: `ui.formFields` the schema has, or every field of the schema. */
export function formFieldNames(resource: ResourceDef, mode: FormMode = 'create'): string[] {
  const shape = inputSchemaOf(resource, mode).shape as Record<string, z.ZodType>;
  return [...(resource.ui?.formFields ?? Object.keys(shape))].filter((name) => name in shape);
}

/** The label of a field: the page's own, then the declaration's, then one made from its name. */
export function labelOf(
  resource: ResourceDef,
  name: string,
  overrides: Readonly<Record<string, string>> = {},
): string {
  return overrides[name] ?? resource.ui?.labels?.[name] ?? fieldLabel(name);
}

/** The inputs of the create/edit form, in order, with everything the declaration says of them. */
export function formFields(
  resource: ResourceDef,
  mode: FormMode = 'create',
  labels: Readonly<Record<string, string>> = {},
): FormField[] {
  const shape = inputSchemaOf(resource, mode).shape as Record<string, z.ZodType>;
  return formFieldNames(resource, mode).map((name) => {
    const help = resource.ui?.help?.[name];
    const widget = resource.ui?.widgets?.[name];
    return {
      name,
      info: fieldInfo(shape[name]!, name),
      label: labelOf(resource, name, labels),
      ...(help ? { help } : {}),
      ...(widget ? { widget } : {}),
    };
  });
}

export interface Choice {
  /** The value sent: a record's number stays a number (an id list such as `databases`). */
  id: string | number;
  name: string;
  disabled?: boolean;
}

type ReferenceWidget = Extract<Widget, { kind: 'reference' }>;

/**
 * The choices of a reference input: the fixed extras first (`root`), then the records, each
 * by its `optionText`, sending its `optionValue` (`id` by default). A record the server does
 * not have yet (pending, failed) is listed but cannot be chosen.
 */
export function referenceChoices(
  widget: ReferenceWidget,
  records: readonly Record<string, unknown>[],
): Choice[] {
  const valueField = widget.optionValue ?? 'id';
  const extras = (widget.extra ?? []).map((e) => ({ id: e.value, name: e.label }));
  const seen = new Set<string | number>(extras.map((e) => e.id));
  const fromRecords: Choice[] = [];
  for (const record of records) {
    const raw = record[valueField];
    const id = typeof raw === 'number' ? raw : String(raw ?? '');
    if (id === '' || seen.has(id)) continue;
    seen.add(id);
    const text = String(record[widget.optionText] ?? id);
    const status = typeof record.status === 'string' ? record.status : 'active';
    fromRecords.push(
      status === 'active'
        ? { id, name: text }
        : { id, name: `${text} (${status})`, disabled: true },
    );
  }
  return [...extras, ...fromRecords];
}

/** The label of a suggested value, when the value is one of the choices. */
export function choiceLabel(
  choices: readonly { label: string; value: string }[],
  value: string,
): string | null {
  return choices.find((choice) => choice.value === value.trim())?.label ?? null;
}

/** Where a server-managed record stands (server/managed/table.ts), as the list shows it. */
export type ManagedStatus = 'pending' | 'active' | 'failed' | 'deleting';

export interface StatusView {
  status: ManagedStatus;
  label: string;
  color: 'default' | 'success' | 'warning' | 'error' | 'info';
  /** Said beside or under the chip: the server's refusal, or what the row waits for. */
  detail: string | null;
}

const STATUS: Record<ManagedStatus, Omit<StatusView, 'status' | 'detail'>> = {
  pending: { label: 'Pending', color: 'warning' },
  active: { label: 'Active', color: 'success' },
  failed: { label: 'Failed', color: 'error' },
  deleting: { label: 'Deleting', color: 'info' },
};

export function isManagedStatus(value: unknown): value is ManagedStatus {
  return typeof value === 'string' && value in STATUS;
}

export function statusView(record: Record<string, unknown>): StatusView | null {
  const { status } = record;
  if (!isManagedStatus(status)) return null;
  const error = typeof record.error === 'string' && record.error ? record.error : null;
  const detail =
    status === 'failed'
      ? (error ?? 'The server refused it')
      : status === 'pending'
        ? 'Waiting for the server to apply it'
        : status === 'deleting'
          ? 'Waiting for the server to remove it'
          : null;
  return { status, ...STATUS[status], detail };
}

/** A resource whose records carry a managed status: the list gets a status column. */
export function isManaged(resource: ResourceDef): boolean {
  const shape = resource.schema.shape as Record<string, z.ZodType>;
  return 'status' in shape && 'error' in shape;
}

/** What to say after a write, by the record the server answered with. */
export function savedMessage(
  record: Record<string, unknown> | undefined,
  what: string,
  verb: 'created' | 'saved' | 'deleted',
): { text: string; type: 'success' | 'info' } {
  const status = record?.status;
  if (status === 'pending' || status === 'deleting')
    return {
      text:
        verb === 'deleted'
          ? `${what} will be removed when the server is back online.`
          : `${what} was ${verb}. The server is offline: it is applied when it reconnects.`,
      type: 'info',
    };
  return { text: `${what} was ${verb}.`, type: 'success' };
}

/**
 * The server refused a stored record (`status: failed`, `error`, `error_field`): the message
 * for the field it concerns, when the form shows that field.
 */
export function recordFieldError(
  record: Record<string, unknown> | undefined,
  visible: readonly string[],
): { field: string; message: string } | null {
  if (!record || record.status !== 'failed') return null;
  const field = record.error_field;
  const message = record.error;
  if (typeof field !== 'string' || typeof message !== 'string') return null;
  return visible.includes(field) ? { field, message } : null;
}

/**
 * The body of a `?dry=true` availability check: the form's values, with any field that its own
 * schema refuses yet (a password not typed) replaced by `stand-ins`, so the server only judges
 * the name. Null when the checked value itself is not valid yet.
 */
export function availabilityBody(
  schema: z.ZodObject,
  values: Readonly<Record<string, unknown>>,
  field: string,
  standIns: Readonly<Record<string, () => unknown>> = {},
): Record<string, unknown> | null {
  const shape = schema.shape as Record<string, z.ZodType>;
  const checked = shape[field];
  if (!checked || !checked.safeParse(values[field]).success) return null;
  const body: Record<string, unknown> = {};
  for (const [name, fieldSchema] of Object.entries(shape)) {
    const value = values[name];
    if (fieldSchema.safeParse(value).success) {
      if (value !== undefined) body[name] = value;
    } else if (standIns[name]) body[name] = standIns[name]();
  }
  return body;
}

/** How a row differs from the server after a `?sync=true` check, or null when it does not. */
export function driftText(drift: unknown): string | null {
  if (drift === 'missing') return 'Missing on the server';
  if (drift === 'changed') return 'Changed on the server';
  return null;
}

/** How dialogs and messages name one record: its declared representation, else its id. */
export function recordName(resource: ResourceDef, record: Record<string, unknown>): string {
  const field = resource.ui?.recordRepresentation;
  const value = field ? record[field] : undefined;
  if (typeof value === 'string' && value.trim()) return value.trim();
  return `#${String(record.id)}`;
}

/** Rows that wait for the server (pending, deleting): the list is read again until they settle. */
export function waiting(rows: readonly Record<string, unknown>[] | undefined): boolean {
  return (rows ?? []).some((row) => row.status === 'pending' || row.status === 'deleting');
}
