import type { RouteDef } from '../../src/routes/types';

/**
 * The backup pages (spec s.7 "Backups", issue 24; profile layout): the overview with credit and
 * storages, the policies of web apps and of databases, and one policy's files.
 */
export const routes: readonly RouteDef[] = [
  {
    path: '/backup',
    layout: 'profile',
    access: 'user',
    title: 'Backups',
    page: () => import('./BackupOverviewPage'),
  },
  {
    path: '/account-backups',
    layout: 'profile',
    access: 'user',
    title: 'Web app backups',
    page: () => import('./AccountBackupsPage'),
  },
  {
    path: '/database-backups',
    layout: 'profile',
    access: 'user',
    title: 'Database backups',
    page: () => import('./DatabaseBackupsPage'),
  },
  {
    path: '/account-backup-files/:id',
    layout: 'profile',
    access: 'user',
    title: 'Web app backup files',
    page: () => import('./AccountBackupFilesPage'),
  },
  {
    path: '/database-backup-files/:id',
    layout: 'profile',
    access: 'user',
    title: 'Database backup files',
    page: () => import('./DatabaseBackupFilesPage'),
  },
];
