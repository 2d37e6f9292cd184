import type { ComponentType } from 'react';
import type { MenuName } from '../shell/menus';

/** The spec's layouts (section 2), chosen per route. */
export type LayoutName =
  | 'default'
  | 'plain'
  | 'main'
  | 'profile'
  | 'secondary'
  | 'fileManager'
  | 'webApp'
  | 'appsMini'
  | 'email'
  | 'admin'
  | 'adminPlain';

/**
 * Who may open a route. `public` pages are for signed-out visitors; `open` pages (403, 404)
 * are for everyone; `user` needs a token; `staff` admins or admin staff; `admin` admins only.
 */
export type RouteAccess = 'public' | 'open' | 'user' | 'staff' | 'admin';

export type PageModule = Promise<{ default: ComponentType }>;

export interface RouteDef {
  /**
   * react-router pattern: `/reset-password/:id`. Server-level pages name the server
   * `:serverId` (or `:id`), app-level pages `:serverId/:webAppId`: the layouts read them.
   */
  path: string;
  layout: LayoutName;
  /** A sidebar other than the layout's own (e.g. the mailbox sidebar in the email layout). */
  sidebar?: MenuName;
  access: RouteAccess;
  /** Shown in the browser tab and the layout's title bar. */
  title: string;
  /** Lazy module of the page: keeps every page out of the first bundle. */
  page: () => PageModule;
}
