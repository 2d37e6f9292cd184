/**
 * The repository ops: snapshots forgotten by id (and pruned), the repository checked, and a
 * test restore into scratch space compared with the snapshot, always removed after.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import type { z } from 'zod';
import { OpError, opFieldError } from '../../agent/lib/opError';
import type { OpContext } from '../../agent/ops/types';
import { sql } from '../databases/agentApi';
import { DB_NAME, literal } from '../databases/api';
import { restic } from './agentRestic';
import { classifyExit } from './agentResticErrors';
import { inLane } from './agentResticLane';
import { checkRepository, retryIfLocked, unlockStale } from './agentRepoMaintenance';
import { restoreDatabase, restoreFiles } from './agentRestore';
import { failure, isFailed } from './agentOpCommon';
import type { ops } from './resource';

type Args<N extends keyof typeof ops> = z.output<(typeof ops)[N]['args']>;

/** `forget <ids> --prune`: exclusive, so stale locks of dead runs are removed first. */
export async function forgetOp(a: Args<'backups.forget'>, ctx: OpContext) {
  ctx.progress(`Removing ${a.snapshots.length} backups`, 1);
  const done = await retryIfLocked(a.target, async () => {
    const unlocked = await unlockStale(a.target);
    if (isFailed(unlocked)) return unlocked;
    const ended = await restic(a.target, 'forget', ['--prune', '--', ...a.snapshots]);
    const problem = classifyExit(ended);
    return problem ? { status: 'failed' as const, error: problem } : { status: 'ok' as const };
  });
  if (isFailed(done)) throw failure(done, 'The backups could not be removed');
  ctx.progress('Backups removed', 10);
  return { removed: a.snapshots };
}

/**
 * `check` (reading part of the data when asked): damage is `ok: false` with words; a storage
 * that cannot be opened is an error of the op (nothing was checked).
 */
export async function checkOp(a: Args<'backups.check'>, ctx: OpContext) {
  ctx.progress(
    a.read_data_subset ? `Checking the backups, reading ${a.read_data_subset}` : 'Checking',
    1,
  );
  const done = await checkRepository(
    a.target,
    a.read_data_subset ? { read_data_subset: a.read_data_subset } : {},
  );
  if (isFailed(done)) {
    if (done.error.kind !== 'verify_failed') throw failure(done, 'The check could not run');
    return { ok: false, message: `${done.error.message} ${done.error.detail}`.trim() };
  }
  ctx.progress('Checked', 10);
  return {
    ok: true,
    message: a.read_data_subset
      ? `No errors found (data read: ${a.read_data_subset}).`
      : 'No errors found.',
  };
}

const scratchName = () => randomBytes(6).toString('hex');

/** The snapshot restored into scratch space and compared; the scratch always removed. */
export async function testRestoreOp(a: Args<'backups.test-restore'>, ctx: OpContext) {
  return inLane(a.target, async () => {
    ctx.progress('Restoring the backup into scratch space', 1);
    if (a.type === 'webapp') {
      const scratch = await mkdtemp('/var/tmp/stackdeck-restore-test-');
      try {
        const r = await restoreFiles(
          a.target,
          { snapshot: a.snapshot, target: path.join(scratch, 'files') },
          { allowedRoots: [scratch] },
        );
        if (isFailed(r)) {
          if (r.error.kind !== 'verify_failed' && r.error.kind !== 'failed')
            throw failure(r, 'The test restore could not run');
          return { ok: false, message: r.error.message, files: 0, bytes: 0 };
        }
        ctx.progress('Restored and compared', 10);
        return {
          ok: true,
          message: `Restored ${r.files} entries, ${r.bytes} bytes: as the backup holds.`,
          files: r.files,
          bytes: r.bytes,
        };
      } finally {
        await rm(scratch, { recursive: true, force: true });
      }
    }
    if (!a.source) throw opFieldError('source', "The database's name in the backup");
    const into = `sd_test_restore_${scratchName()}`;
    try {
      const r = await restoreDatabase(a.target, {
        snapshot: a.snapshot,
        database: a.source,
        into,
      });
      if (isFailed(r)) {
        if (!['verify_failed', 'import_failed', 'failed'].includes(r.error.kind))
          throw failure(r, 'The test restore could not run');
        return { ok: false, message: r.error.message, files: 0, bytes: 0 };
      }
      if (r.tables === 0)
        return { ok: false, message: 'The backup loaded, but holds no table.', files: 0, bytes: 0 };
      const [[bytes]] = (await sql(
        `SELECT COALESCE(SUM(DATA_LENGTH + INDEX_LENGTH), 0) FROM information_schema.TABLES WHERE TABLE_SCHEMA = ${literal(into, DB_NAME)};`,
      )) as [[string]];
      ctx.progress('Restored and compared', 10);
      return {
        ok: true,
        message: `The dump loaded completely: ${r.tables} tables and views.`,
        files: r.tables,
        bytes: Number(bytes),
      };
    } catch (error) {
      if (error instanceof OpError) throw error;
      throw new OpError('failed', error instanceof Error ? error.message : String(error));
    } finally {
      await sql(`DROP DATABASE IF EXISTS \`${into}\`;`);
    }
  });
}
