import { pubkeys } from '../../../resources/pubkeys';
import { sysusers } from '../../../resources/sysusers';
import { sshFingerprint } from '../../../resources/agent/fingerprint';
import { readOp, runOp } from '../../agents/runOp';
import { HttpError, fieldError, notFound } from '../../http/errors';
import { type HandlerContext, defineHandlers } from '../../http/handlers';
import { revokeKeysOfLeavers } from './keyRevocation';

type Ctx = HandlerContext<unknown, unknown>;

/**
 * Applies a pending row on the server: active when the op succeeds, failed with the agent's
 * reason when not (the error still reaches the client).
 */
async function apply<T>(
  ctx: Ctx,
  op: () => Promise<T>,
  settle: (status: 'active' | 'failed', error: string | null) => Promise<unknown>,
): Promise<T> {
  try {
    const result = await op();
    await settle('active', null);
    return result;
  } catch (error) {
    await settle('failed', error instanceof Error ? error.message : 'failed');
    throw error;
  }
}

export const sysuserHandlers = defineHandlers(sysusers, {
  list: (ctx) => ctx.app.services.serverAccounts.listUsers(ctx.server.id, ctx.query),

  async create(ctx) {
    const accounts = ctx.app.services.serverAccounts;
    const body = ctx.body as {
      user_name: string;
      password: string;
      quota_hard: number;
      quota_soft: number;
    };
    const taken = await accounts.findUserByName(ctx.server.id, body.user_name);
    if (ctx.query.dry === 'true') {
      if (taken) return { available: false, reason: 'The panel has a system user of this name' };
      if (body.user_name === 'root') return { available: false, reason: 'This name is reserved' };
      return readOp(ctx, 'sysusers.check', { user_name: body.user_name });
    }
    if (taken) throw fieldError('user_name', 'A system user of this name exists');
    if (body.user_name === 'root') {
      // Only on the server's first opening: root's password is set, nothing is created.
      if (await accounts.hasUsers(ctx.server.id))
        throw fieldError('user_name', 'This name is reserved');
      const row = await accounts.addUser(ctx.server.id, {
        user_name: 'root',
        quota_hard: 0,
        quota_soft: 0,
      });
      await apply(
        ctx,
        () =>
          runOp(ctx, 'Set the root password', 'sysusers.rootPassword', { password: body.password }),
        (status, error) => accounts.setUserState(row.id, status, error),
      );
      return { ...row, status: 'active' as const };
    }
    const row = await accounts.addUser(ctx.server.id, {
      user_name: body.user_name,
      quota_hard: body.quota_hard,
      quota_soft: body.quota_soft,
    });
    await apply(
      ctx,
      () => runOp(ctx, `Create system user ${body.user_name}`, 'sysusers.create', body),
      (status, error) => accounts.setUserState(row.id, status, error),
    );
    ctx.reply.code(201);
    return (await accounts.findUserByName(ctx.server.id, row.user_name))!;
  },

  async get(ctx) {
    const row = ctx.child;
    if (!ctx.query.rsa) return row;
    if (ctx.query.rsa === 'get')
      return readOp(ctx, 'sysusers.deployKey', { user_name: row.user_name, create: false });
    return runOp(ctx, `Create the deployment key of ${row.user_name}`, 'sysusers.deployKey', {
      user_name: row.user_name,
      create: true,
    });
  },

  async update(ctx) {
    const row = ctx.child;
    if (!ctx.body.password) throw fieldError('password', 'Required');
    if (row.status !== 'active') throw new HttpError(409, 'This user is not on the server');
    await runOp(ctx, `Change the password of ${row.user_name}`, 'sysusers.password', {
      user_name: row.user_name,
      password: ctx.body.password,
    });
    return row;
  },

  async delete(ctx) {
    const accounts = ctx.app.services.serverAccounts;
    const row = ctx.child;
    // A user that never reached the server goes from the panel alone.
    if (row.status !== 'failed') {
      await runOp(ctx, `Delete system user ${row.user_name}`, 'sysusers.delete', {
        user_name: row.user_name,
        delete_home: true,
      });
    }
    await accounts.deleteKeysOf(ctx.server.id, row.user_name);
    await accounts.deleteUser(row.id);
    return row;
  },
  actions: {},
});

export const pubkeyHandlers = defineHandlers(pubkeys, {
  list: (ctx) =>
    ctx.app.services.serverAccounts.listKeys(ctx.server.id, ctx.server.user_id, ctx.query),

  async create(ctx) {
    const accounts = ctx.app.services.serverAccounts;
    const server = ctx.server;
    const { label, user_name, key } = ctx.body as { label: string; user_name: string; key: string };
    if (user_name !== 'root') {
      const owner = await accounts.findUserByName(server.id, user_name);
      if (owner?.status !== 'active')
        throw fieldError('user_name', 'No such system user on this server');
    }
    const { type, fingerprint } = sshFingerprint(key);
    if (await accounts.findKeyByFingerprint(server.id, user_name, fingerprint)) {
      throw fieldError('key', 'This key is there already');
    }
    // The key rides on the access of the path's user: the owner, or a member reaching the
    // server through a team. An admin acting for a member adds it as that member, so it goes
    // when the member does (the admin stays named in the activity line, as the actor).
    const row = await accounts.addKey(server.id, {
      user_name,
      label,
      type,
      fingerprint,
      public_key: key,
      added_by: ctx.uid,
    });
    try {
      await apply(
        ctx,
        () =>
          runOp(ctx, `Add SSH key "${label}" for ${user_name}`, 'pubkeys.add', { user_name, key }),
        (status, error) => accounts.setKeyState(row.id, status, error),
      );
    } finally {
      // The adder lost the server while the key was being added: it goes now.
      if ((await accounts.reloadKey(row))?.status === 'removing')
        await revokeKeysOfLeavers(ctx.app, [server.id], ctx.caller ?? null);
    }
    ctx.reply.code(201);
    const now = await accounts.reloadKey(row);
    if (!now) throw notFound('The key was removed meanwhile');
    return accounts.keyRecord(now, server.user_id);
  },

  async delete(ctx) {
    const accounts = ctx.app.services.serverAccounts;
    const row = await accounts.keyRecord(ctx.child, ctx.server.user_id);
    if (row.status !== 'failed') {
      await runOp(ctx, `Remove SSH key "${row.label}" of ${row.user_name}`, 'pubkeys.remove', {
        user_name: row.user_name,
        fingerprint: row.fingerprint,
      });
    }
    await accounts.deleteKey(row.id);
    return row;
  },
  actions: {},
});
