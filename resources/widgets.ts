/**
 * The generic UI's part of a declaration: which fields a list and a form show, and the inputs
 * drawn by a widget rather than from their schema alone. Types only.
 */
/**
 * An input that is more than its schema says, declared once and drawn by the generic form:
 * the schema still validates the value on both sides.
 */
export type Widget =
  /** A secret with a generator (and a strength hint); never shown again after saving. */
  | { kind: 'password'; length?: number }
  /**
   * A name checked while typing: the resource's create call with `?dry=true` answers
   * `{available, reason}` (as `sysusers` does).
   */
  | { kind: 'availability' }
  /**
   * A choice among records of another resource of the same server (`sysusers`, `databases`):
   * `optionValue` is the field sent (`id` by default), `extra` fixed choices offered first
   * (`root`, which is no record of the panel).
   */
  | {
      kind: 'reference';
      resource: string;
      optionText: string;
      optionValue?: string;
      multiple?: boolean;
      extra?: readonly { label: string; value: string }[];
    }
  /** Suggested values with their labels; `custom` lets the user type another (cron schedules). */
  | { kind: 'choices'; choices: readonly { label: string; value: string }[]; custom?: boolean }
  /** Long text (commands, scripts): a multi-line input, monospace. */
  | { kind: 'code' }
  /** A list of short strings (an app's domains): one per line of a multi-line input. */
  | { kind: 'lines' }
  /**
   * Values the server itself offers (its MariaDB's collations): a declared GET action of
   * `resource` answering `{data: [...]}`, asked with the page's server id as `?{serverParam}=`,
   * or as the path's `{sid}` when no `serverParam` is given.
   * The user may still type a value of their own: the server's answer is a suggestion list;
   * with `only`, the server's values alone (a select) while the server answers.
   */
  | {
      kind: 'offered';
      resource: string;
      action: string;
      serverParam?: string;
      optionValue: string;
      /** A field whose value is shown beside the option (a collation's charset). */
      optionHint?: string;
      /** Only the server's values (an app's PHP version: one the server has installed). */
      only?: boolean;
    };

export interface ResourceUi {
  /** Columns of the generic list page, in order. */
  listFields?: readonly string[];
  /** Inputs of the generic create/edit form, in order. */
  formFields?: readonly string[];
  /** Inputs drawn by a widget rather than from their schema alone, by field. */
  widgets?: Readonly<Record<string, Widget>>;
  /** Labels of fields where the field's name says it badly (`sys_user` -> System user). */
  labels?: Readonly<Record<string, string>>;
  /** A line under a field: what it means, what is allowed. */
  help?: Readonly<Record<string, string>>;
  recordRepresentation?: string;
}
