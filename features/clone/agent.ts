import { defineAgentFeature } from '../../agent/ops/types';
import { cloneDatabase } from './agentDatabase';
import { cloneFiles } from './agentFiles';
import { ops } from './resource';

/**
 * Cloning a web app (issue 11): the files as the two users, the database as root over the
 * socket. Locks: one clone into a folder or database at a time.
 */
export const agent = defineAgentFeature(ops, {
  ops: {
    'clone.files': (args, ctx) => cloneFiles(args, ctx),
    'clone.database': (args, ctx) => cloneDatabase(args, ctx),
  },
  locks: {
    'clone.files': ({ to_dir }) => [`clone:${to_dir}`],
    'clone.database': ({ to }) => [`clone-db:${to}`],
  },
});
