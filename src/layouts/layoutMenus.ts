import type { LayoutName } from '../routes/types';
import type { MenuName } from '../shell/menus';

/**
 * The sidebar of each layout (spec section 2), in one place so that a test can hold every page
 * of an app to the same one: the app's pages (secondary) and its file manager and editor show
 * the full web-app sidebar, Databases and Cache Control included.
 */
export const LAYOUT_MENUS: Record<LayoutName, MenuName | null> = {
  default: null,
  plain: null,
  main: 'main',
  profile: 'profile',
  secondary: 'webApp',
  fileManager: 'webApp',
  webApp: 'server',
  appsMini: 'appMini',
  email: 'email',
  admin: 'admin',
  adminPlain: null,
};
