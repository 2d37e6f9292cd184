/** The one-click installers that exist, for the "Install an app" menu (spec /install-*). */
export const INSTALLERS: readonly {
  app: string;
  label: string;
  path: (sid: number | string) => string;
}[] = [
  { app: 'wordpress', label: 'WordPress', path: (sid) => `/install-wordpress/${sid}` },
  { app: 'nodejs', label: 'Node.js', path: (sid) => `/install-nodejs/${sid}` },
];
