import path from 'node:path';
import { defineServerFeature } from '../../server/feature';
import { ManagedStore } from '../../server/managed/store';
import type { ManagedRow } from '../../server/managed/table';
import type { ServiceDeps } from '../../server/serviceDeps';
import { defineHandlers } from '../../server/http/handlers';
import { adminBackups, backupCredit, backupFiles, backupTargets, backups } from './resource';
import { adminCreditAction, creditActions, meterJob, meterSchedule } from './serverCredit';
import { adminListAction, policyActions, policyHandlers } from './serverHandlers';
import { backupsAccountChildren } from './serverLoaders';
import { targetActions } from './serverTargets';
import {
  pauseServerPolicies,
  pauseSubjectPolicies,
  unscheduleUserPolicies,
} from './serverPolicies';
import { BackupRepositories } from './serverRepoAuth';
import resticRoutes from './serverRepoRoutes';
import { RepoStore } from './serverRepoStore';
import { repositoriesMigration } from './serverRepoTables';
import { restoreJob } from './serverRestore';
import { restoresMigration } from './serverRestoreTables';
import { runJob } from './serverRun';
import { fileActions, runActions } from './serverRunHandlers';
import { backupsMigration } from './serverTables';
import { recoveryHandlers } from './serverRecoveryHandlers';
import { recoveryKeysMigration } from './serverRecoveryTables';
import { sshKeysMigration } from './serverSshKeys';
import { pruneJob, verifyJob, verifySchedules } from './serverVerify';

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
  handlers: [
    // The runs' actions (back up now, restore, remove, download) beside the policies'.
    defineHandlers(backups, {
      ...policyHandlers,
      actions: { ...policyActions, ...runActions },
    }),
    defineHandlers(backupFiles, { actions: fileActions }),
    defineHandlers(backupTargets, { actions: targetActions }),
    defineHandlers(backupCredit, { actions: creditActions }),
    defineHandlers(adminBackups, { actions: { ...adminListAction, ...adminCreditAction } }),
    recoveryHandlers,
  ],
  jobs: [meterJob, runJob, restoreJob, verifyJob, pruneJob],
  schedules: [meterSchedule, ...verifySchedules],
  migrations: {
    '0050_backup_repositories': repositoriesMigration,
    '0051_backups': backupsMigration,
    '0052_backup_recovery_keys': recoveryKeysMigration,
    '0053_backup_ssh_keys': sshKeysMigration,
    '0054_backup_restores': restoresMigration,
  },
  accountChildren: backupsAccountChildren,
  services: (deps: ServiceDeps): BackupsServices => ({
    backupRepositories: new BackupRepositories(
      deps.db,
      new RepoStore(path.join(deps.config.dataDir, 'backups')),
      deps.clock,
    ),
  }),
  // restic's REST protocol at /restic/{repo}/ (serverRepoRoutes.ts).
  routes: resticRoutes,
  on: {
    /** A removed server's policies are switched off and unscheduled; their files stay. */
    async 'server.removing'({ server }, { app }) {
      await pauseServerPolicies(app, server.id);
    },
    /**
     * A deleted app's policies (and its databases', when they go with it) are switched off and
     * unscheduled instead of failing every run; their files stay, restorable elsewhere.
     */
    async 'app.deleting'({ app: webapp, databases }, { app }) {
      await pauseSubjectPolicies(app, webapp.server_id, { webapp_id: webapp.id });
      if (!databases) return;
      // The app's databases (`webapp_id`, the appdatabases feature's column).
      const dbs = await new ManagedStore<ManagedRow>(app.db, 'databases').all(webapp.server_id, {
        webapp_id: webapp.id,
      });
      await pauseSubjectPolicies(app, webapp.server_id, { database_ids: dbs.map((d) => d.id) });
    },
    /** A database deleted on its own: its policies likewise. */
    async 'database.deleting'({ database }, { app }) {
      await pauseSubjectPolicies(app, database.server_id, { database_ids: [database.id] });
    },
    /** A deleted account's schedules go (its targets, policies and stores go with its rows). */
    async 'user.deleting'({ user }, { app }) {
      await unscheduleUserPolicies(app, user.id);
    },
  },
});
