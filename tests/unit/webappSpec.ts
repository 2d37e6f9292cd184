import { DEFAULT_PHP_SETTINGS } from '../../features/webapps/names';
import { type AppSpec, appSpec } from '../../features/webapps/resource';

/** A web app's spec as the panel sends it (a PHP app on nginx), with what a test changes. */
export const webappSpec = (over: Partial<AppSpec> = {}): AppSpec =>
  appSpec.parse({
    name: 'shop',
    user: 'alice',
    stack_type: 'nginx',
    webapp_type: 'custom',
    php_version: '8.2',
    domains: ['shop.example', 'www.shop.example'],
    web_root: 'public',
    php_settings: DEFAULT_PHP_SETTINGS,
    parent: null,
    ...over,
  });
