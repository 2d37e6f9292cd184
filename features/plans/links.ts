/** The packages pages' paths (spec section 2). */
export const planPaths = {
  admin: '/admin/packages',
  main: (id: number | string) => `/admin/add-main-package/${id}`,
  addon: '/admin/add-addon-package',
};
