import { defineAgentFeature } from '../../agent/ops/types';
import { databaseOp, filesOp } from './agentOpBackup';
import { checkOp, forgetOp, testRestoreOp } from './agentOpRepo';
import { dropPreviousOp, restoreDatabaseOp, restoreFilesOp } from './agentOpRestore';
import { ops } from './resource';
import { withTargetFiles } from './agentTargetFiles';

/**
 * Backups (issue 24): restic on the server, the repository handed over with each call. Every
 * op that runs restic holds the repository's lane (agentResticLane.ts: one restic at a time per
 * repository, re-entrant, so the lib's own lanes nest); a restore also holds its app or database.
 * Every op with a `target` gets an SFTP target's key and host keys as files for that op only
 * (agentTargetFiles.ts).
 */
export const agent = defineAgentFeature(ops, {
  ops: {
    'backups.files': (args, ctx) => withTargetFiles(args, (a) => filesOp(a, ctx)),
    'backups.database': (args, ctx) => withTargetFiles(args, (a) => databaseOp(a, ctx)),
    'backups.restore-files': (args, ctx) => withTargetFiles(args, (a) => restoreFilesOp(a, ctx)),
    'backups.restore-database': (args, ctx) =>
      withTargetFiles(args, (a) => restoreDatabaseOp(a, ctx)),
    'backups.drop-previous': (args) => dropPreviousOp(args),
    'backups.forget': (args, ctx) => withTargetFiles(args, (a) => forgetOp(a, ctx)),
    'backups.check': (args, ctx) => withTargetFiles(args, (a) => checkOp(a, ctx)),
    'backups.test-restore': (args, ctx) => withTargetFiles(args, (a) => testRestoreOp(a, ctx)),
  },
  locks: {
    'backups.files': ({ sys_user, app }) => [`backups-app:${sys_user}/${app}`],
    'backups.restore-files': ({ sys_user, app }) => [`backups-app:${sys_user}/${app}`],
    'backups.database': ({ database }) => [`backups-db:${database}`],
    'backups.restore-database': ({ database }) => [`backups-db:${database}`],
  },
});
