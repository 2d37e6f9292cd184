import type { ComponentType } from 'react';
import type { SvgIconProps } from '@mui/material';
import ListAlt from '@mui/icons-material/ListAlt';
import type { ResourceDef, ResourceOps } from '../../resources/define';
import { GenericCreate, type GenericCreateProps } from './GenericCreate';
import { GenericEdit, type GenericEditProps } from './GenericEdit';
import { GenericList, type GenericListProps } from './GenericList';
import { GenericShow, type GenericShowProps } from './GenericShow';

type Page = ComponentType;

/**
 * What a resource's UI folder exports by default, react-admin-example style: one page per
 * declared operation, an icon for menus, and the field that names a record.
 */
export type ResourceUi<O extends ResourceOps> = {
  icon: ComponentType<SvgIconProps>;
  recordRepresentation?: string;
} & ('list' extends keyof O ? { list: Page } : unknown) &
  ('get' extends keyof O ? { show: Page } : unknown) &
  ('create' extends keyof O ? { create: Page } : unknown) &
  ('update' extends keyof O ? { edit: Page } : unknown);

type Without<P> = Partial<Omit<P, 'resource'>>;

export interface ResourceUiOptions {
  icon?: ComponentType<SvgIconProps>;
  /** Props for the generic pages (labels, custom cells, the spec's paths for links). */
  list?: Without<GenericListProps>;
  show?: Without<GenericShowProps>;
  create?: Without<GenericCreateProps>;
  edit?: Without<GenericEditProps>;
  /** Hand-written pages that replace generic ones. */
  pages?: Partial<Record<'list' | 'show' | 'create' | 'edit', Page>>;
}

/**
 * Builds a resource UI folder's default export from its declaration, so a plain resource
 * needs no hand-written page: only what it declares gets a page, and each page can be tuned
 * with props or replaced.
 */
export function resourceUi<R extends ResourceDef>(
  def: R,
  options: ResourceUiOptions = {},
): ResourceUi<R['ops']> {
  const { pages = {} } = options;
  const ui: Record<string, unknown> = {
    icon: options.icon ?? ListAlt,
    recordRepresentation: def.ui?.recordRepresentation,
  };
  if (def.ops.list) {
    ui.list =
      pages.list ?? named(def, 'List', () => <GenericList resource={def} {...options.list} />);
  }
  if (def.ops.get) {
    ui.show =
      pages.show ?? named(def, 'Show', () => <GenericShow resource={def} {...options.show} />);
  }
  if (def.ops.create) {
    ui.create =
      pages.create ??
      named(def, 'Create', () => <GenericCreate resource={def} {...options.create} />);
  }
  if (def.ops.update) {
    ui.edit =
      pages.edit ?? named(def, 'Edit', () => <GenericEdit resource={def} {...options.edit} />);
  }
  return ui as ResourceUi<R['ops']>;
}

/** "AuthlogsList" in React DevTools instead of an anonymous arrow. */
function named(def: ResourceDef, suffix: string, page: Page): Page {
  const base = def.name.replace(/(^|-)(\w)/g, (_, _dash: string, c: string) => c.toUpperCase());
  Object.defineProperty(page, 'displayName', { value: `${base}${suffix}` });
  return page;
}
