/** The pages of panel settings (spec s.2 spells the settings page `module-sittings`). */
export const settingsPaths = {
  settings: '/admin/module-sittings',
  credentials: '/admin/api',
  addCredential: '/admin/add-api',
  replaceCredential: (id: number | string) => `/admin/add-api?replace=${encodeURIComponent(id)}`,
} as const;
