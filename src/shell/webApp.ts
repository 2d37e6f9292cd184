/**
 * What the web-app layouts show about the open app. Pages load the app and publish it
 * (src/shell/WebAppInfo.tsx); the layouts pick the menu and fill the file-manager strip.
 */
export interface WebAppInfo {
  webapp_type?: string | null;
  php_version?: string | null;
  stack_type?: string | null;
  domains?: readonly (string | { name: string })[] | null;
  sys_user?: { user_name: string } | null;
}

/** The menu switch for WordPress apps happens after 500 ms (spec sections 2 and 9). */
export const WORDPRESS_MENU_SWITCH_MS = 500;

export const isWordPress = (info: WebAppInfo | null | undefined) =>
  (info?.webapp_type ?? '').toLowerCase() === 'wordpress';

/** Stack names as the spec prints them (section 9). */
export function stackLabel(stack: string | null | undefined): string {
  if (!stack) return '';
  const key = stack.toLowerCase();
  if (key === 'apache/nginx') return 'NGINX plus Apache2';
  if (key === 'nginx') return 'Native NGINX';
  return stack;
}

export function firstDomain(info: WebAppInfo | null | undefined): string {
  const first = info?.domains?.[0];
  if (!first) return '';
  return typeof first === 'string' ? first : first.name;
}
