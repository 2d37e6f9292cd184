/** The release catalogue's admin pages. */
export const releasePaths = {
  admin: '/admin/app-releases',
  add: '/admin/add-app-release',
  edit: (id: number | string) => `/admin/edit-app-release/${id}`,
};
