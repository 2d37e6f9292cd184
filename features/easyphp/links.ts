/** The EasyPHP pages' paths (spec section 2). */
export const easyPhpPaths = {
  server: (sid: number | string) => `/easy-php/${sid}`,
  servers: '/easyphp',
  admin: '/admin/php-management',
  add: '/admin/add-extension',
  edit: (id: number | string) => `/admin/edit-extension/${id}`,
};
