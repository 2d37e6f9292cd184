import type { Widget } from '../../../resources/define';
import type { FormField } from '../formModel';

/** The declared widget of one kind. */
export type Of<K extends Widget['kind']> = Extract<Widget, { kind: K }>;

/** What every widget gets: its field, its declaration, its help line. */
export interface WidgetProps<K extends Widget['kind']> {
  field: FormField;
  widget: Of<K>;
  /** The declared help line, or false. */
  helperText: string | false;
  autoFocus?: boolean;
}
