import type { SvgIconComponent } from '@mui/icons-material';
import type { LocaleCode } from '../i18n';

/*
 * The shape of a menu entry, apart from the menus themselves (menus.ts): a feature's menu.ts
 * imports these types, and menus.ts imports the features' entries (src/routes/menus.gen.ts),
 * so the types live here to keep the two out of a circle.
 */

/** The sidebars of spec section 2. */
export type MenuName =
  | 'main'
  | 'server'
  | 'webApp'
  | 'appMini'
  | 'email'
  | 'emailMini'
  | 'mailbox'
  | 'profile'
  | 'admin';

/** Where an entry shows: a sidebar, or the header's shortcuts. */
export type MenuPlace = MenuName | 'header';

/** The shell's own icons, by name (src/shell/icons.tsx); features bring their own component. */
export type IconName =
  | 'dashboard'
  | 'activity'
  | 'key'
  | 'summary'
  | 'users'
  | 'email'
  | 'autoresponder'
  | 'forward'
  | 'disk'
  | 'inbox'
  | 'compose'
  | 'drafts'
  | 'sent'
  | 'spam'
  | 'trash'
  | 'archive'
  | 'profile'
  | 'login'
  | 'subscription'
  | 'servers'
  | 'package'
  | 'coupon'
  | 'api'
  | 'script'
  | 'plans'
  | 'mail'
  | 'backup'
  | 'back';

export type MenuIcon = IconName | SvgIconComponent;

/** A label in every language of the language selector: a missing one fails the type check. */
export type Labels = Record<LocaleCode, string>;

/** The shell's own entries name an i18n key (src/i18n); a feature's carry their words. */
export type MenuLabel = string | Labels;

export interface MenuEntry {
  key: string;
  label: MenuLabel;
  /** The spec's path; server and web-app menus append `/{serverId}` or `/{serverId}/{webAppId}`. */
  path: string;
  icon: MenuIcon;
  /** Place in its menu, the spec's order: entries are numbered in tens (10, 20, ...). */
  order: number;
  /** A way back up (shown apart from the other entries). */
  back?: boolean;
  /** A panel-wide page: no server or web-app id is appended (the server sidebar's way back). */
  global?: boolean;
  /** In a web-app menu, a page of the server: only the server id is appended. */
  serverPage?: boolean;
  /** Shown only for apps of this kind, in place of the entry keyed `replaces`. */
  onlyFor?: 'wordpress';
  replaces?: string;
}

/**
 * One entry a feature declares in its `features/<name>/menu.ts` (`export const menu`), gathered
 * by `npm run features`: the menu it goes in, its words in all four languages, its own icon.
 */
export interface MenuDeclaration extends MenuEntry {
  menu: MenuPlace;
  label: Labels;
  icon: SvgIconComponent;
}
