import { useEffect, useMemo } from 'react';
import { Alert, Button } from '@mui/material';
import { useRecordContext } from 'ra-core';
import { SaveButton, SimpleForm, Toolbar } from 'ra-ui-materialui';
import { useFormContext } from 'react-hook-form';
import { Link } from 'react-router-dom';
import type { ResourceDef } from '../../resources/define';
import { FormMetaContext } from './formMeta';
import {
  type FormField,
  type FormMode,
  formFields,
  inputSchemaOf,
  isManaged,
  recordFieldError,
} from './formModel';
import { generatePassword } from './passwords';
import { SchemaInput } from './SchemaInput';
import { schemaResolver } from './schemaResolver';
import { schemaDefaults } from './zodFields';

export interface GenericFormProps {
  resource: ResourceDef;
  /** Which operation's body the form writes (`ops.create.body`, `ops.update.body`, `input`). */
  mode?: FormMode;
  /** Labels besides the declared `ui.labels`. */
  labels?: Record<string, string>;
  choiceLabels?: Record<string, Record<string, string>>;
  /** A value in words under its input, by field (a cron schedule: `describeSchedule`). */
  describe?: Record<string, (value: string) => string>;
  /** Path values (`sid`) for inputs that call the API: references, availability checks. */
  meta?: Record<string, unknown>;
  /** The Save button's text. */
  saveLabel?: string;
  /** Where Cancel leads (the list); no Cancel without it. */
  cancelTo?: string;
  /** Only these of the declared inputs (an edit that leaves the name as it is). */
  only?: readonly string[];
}

/** Fields a generated value can stand in for while the user has not typed them (a dry check). */
function standInsOf(fields: readonly FormField[]): Record<string, () => unknown> {
  return Object.fromEntries(
    fields
      .filter(
        (f) =>
          f.widget?.kind === 'password' ||
          (f.info.type.kind === 'text' && f.info.type.format === 'password'),
      )
      .map((f) => [
        f.name,
        () => generatePassword(f.widget?.kind === 'password' ? f.widget.length : undefined),
      ]),
  );
}

/**
 * The server refused the stored record (status failed, `error_field`): its message on that
 * input when the form opens, and above the form in any case.
 */
function RecordRefusal({ visible }: { visible: readonly string[] }) {
  const record = useRecordContext();
  const { setError } = useFormContext();
  const atField = recordFieldError(record, visible);
  useEffect(() => {
    if (atField) setError(atField.field, { type: 'server', message: atField.message });
  }, [atField?.field, atField?.message, setError]); // eslint-disable-line react-hooks/exhaustive-deps
  if (record?.status !== 'failed') return null;
  return (
    <Alert severity="error" sx={{ mb: 2, width: '100%' }} data-testid="record-refusal">
      The server refused this: {String(record.error ?? 'no reason given')}. Change it and save to
      try again.
    </Alert>
  );
}

/**
 * The create/edit form of a resource from its declaration: inputs from `ui.formFields` with
 * their declared labels, help lines and widgets, each validated by the same schema the server
 * applies before anything is sent. The server's 400 `errors` come back through react-admin's
 * save controller onto the same inputs, with everything typed still there. Enter submits.
 */
export function GenericForm({
  resource,
  mode = 'create',
  labels = {},
  choiceLabels = {},
  describe = {},
  meta = {},
  saveLabel,
  cancelTo,
  only,
}: GenericFormProps) {
  const fields = useMemo(
    () => formFields(resource, mode, labels).filter((f) => !only || only.includes(f.name)),
    [resource, mode, labels, only],
  );
  // Only the fields the form shows are validated and sent: an edit must not send back the rest
  // of the record (a `two_factor: true` would ask the server to re-enrol).
  const schema = useMemo(() => {
    const declared = inputSchemaOf(resource, mode);
    return declared.pick(Object.fromEntries(fields.map((f) => [f.name, true])) as never);
  }, [resource, mode, fields]);
  const resolver = useMemo(() => schemaResolver(schema), [schema]);
  const defaults = useMemo(() => schemaDefaults(schema), [schema]);
  const standIns = useMemo(() => standInsOf(fields), [fields]);
  const names = fields.map((f) => f.name);
  const managed = isManaged(resource);
  return (
    <FormMetaContext.Provider value={meta}>
      <SimpleForm
        resolver={resolver}
        defaultValues={defaults}
        // Save only: deleting is a decision the list makes, behind a confirmation.
        toolbar={
          <Toolbar sx={{ gap: 1 }}>
            {/* A server-managed record may be saved unchanged: the server applies it again
                (after a refusal, or when its copy drifted). */}
            <SaveButton label={saveLabel} alwaysEnable={mode === 'update' && managed} />
            {cancelTo ? (
              <Button component={Link} to={cancelTo}>
                Cancel
              </Button>
            ) : null}
          </Toolbar>
        }
        sx={{ maxWidth: 720 }}
      >
        <RecordRefusal visible={names} />
        {fields.map((field, index) => (
          <SchemaInput
            key={field.name}
            field={field}
            resource={resource.name}
            schema={inputSchemaOf(resource, mode)}
            choiceLabels={choiceLabels[field.name]}
            describe={describe[field.name]}
            standIns={standIns}
            autoFocus={index === 0}
          />
        ))}
      </SimpleForm>
    </FormMetaContext.Provider>
  );
}
