import type { RouteDef } from '../../src/routes/types';

/**
 * The file manager and the editor (spec: the file-manager layout, its strip and no footer).
 * The editor's page loads Monaco: lazily, so no other page (the login's above all) carries it.
 */
export const routes: RouteDef[] = [
  {
    path: '/file-manager/:serverId/:webAppId',
    layout: 'fileManager',
    access: 'user',
    title: 'File manager',
    page: () => import('./FileManagerPage'),
  },
  {
    path: '/file-editor/:serverId/:webAppId',
    layout: 'fileManager',
    access: 'user',
    title: 'File editor',
    page: () => import('./FileEditorPage'),
  },
];
