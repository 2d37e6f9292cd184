import { SaveButton, SimpleForm, Toolbar } from 'ra-ui-materialui';
import type { ResourceDef } from '../../resources/define';
import { SchemaInput } from './SchemaInput';
import { schemaResolver } from './schemaResolver';
import { fieldsOf, schemaDefaults } from './zodFields';

export interface GenericFormProps {
  resource: ResourceDef;
  labels?: Record<string, string>;
  choiceLabels?: Record<string, Record<string, string>>;
}

/**
 * The create/edit form of a resource: inputs from `ui.formFields` (or every field of `input`),
 * each chosen by its schema, validated by that same schema before anything is sent. The
 * server's 400 `errors` come back through the save controller onto the same inputs.
 */
export function GenericForm({ resource, labels = {}, choiceLabels = {} }: GenericFormProps) {
  const declared = resource.input ?? resource.schema;
  const order = resource.ui?.formFields;
  // Only the fields the form shows are validated and sent: an edit must not send back the rest
  // of the record (a `two_factor: true` would ask the server to re-enrol).
  const schema = order
    ? declared.pick(Object.fromEntries(order.map((name) => [name, true])) as never)
    : declared;
  const fields = fieldsOf(schema, order);
  return (
    <SimpleForm
      resolver={schemaResolver(schema)}
      defaultValues={schemaDefaults(schema)}
      // Save only: deleting is a decision each resource's own page makes, with its own wording.
      toolbar={
        <Toolbar>
          <SaveButton />
        </Toolbar>
      }
      sx={{ maxWidth: 720 }}
    >
      {fields.map(({ name, info }) => (
        <SchemaInput
          key={name}
          name={name}
          info={info}
          label={labels[name]}
          choiceLabels={choiceLabels[name]}
        />
      ))}
    </SimpleForm>
  );
}
