import path from 'node:path';
import { defineServerFeature } from '../../server/feature';
import type { ServiceDeps } from '../../server/serviceDeps';
import { BackupRepositories } from './serverRepoAuth';
import resticRoutes from './serverRepoRoutes';
import { RepoStore } from './serverRepoStore';
import { repositoriesMigration } from './serverRepoTables';

/** The panel's backup storage, next to the panel's other services. */
export interface BackupsServices {
  backupRepositories: BackupRepositories;
}

declare module '../../server/serviceTypes' {
  // The feature's services join `app.services` (server/services.ts).
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- members come from the extended interface
  interface Services extends BackupsServices {}
}

export const server = defineServerFeature({
  handlers: [],
  migrations: { '0050_backup_repositories': repositoriesMigration },
  services: (deps: ServiceDeps): BackupsServices => ({
    backupRepositories: new BackupRepositories(
      deps.db,
      new RepoStore(path.join(deps.config.dataDir, 'backups')),
      deps.clock,
    ),
  }),
  // restic's REST protocol at /restic/{repo}/ (serverRepoRoutes.ts).
  routes: resticRoutes,
});
