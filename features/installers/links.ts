/** The one-click installers that exist, for the "Install an app" menu (spec /install-*). */
export const INSTALLERS: readonly {
  app: string;
  label: string;
  path: (sid: number | string) => string;
}[] = [
  { app: 'wordpress', label: 'WordPress', path: (sid) => `/install-wordpress/${sid}` },
  { app: 'nextcloud', label: 'Nextcloud', path: (sid) => `/install-nextcloud/${sid}` },
  { app: 'joomla', label: 'Joomla', path: (sid) => `/install-joomla/${sid}` },
  { app: 'moodle', label: 'Moodle', path: (sid) => `/install-moodle/${sid}` },
  { app: 'phpmyadmin', label: 'phpMyAdmin', path: (sid) => `/install-phpmyadmin/${sid}` },
  { app: 'roundcube', label: 'Roundcube', path: (sid) => `/install-roundcube/${sid}` },
  { app: 'nodejs', label: 'Node.js', path: (sid) => `/install-nodejs/${sid}` },
];
