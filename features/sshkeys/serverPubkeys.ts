import { pubkeys } from './resource';
import { sshFingerprint } from '../../resources/agent/fingerprint';
import type { PubkeysTable } from '../../server/db/schema';
import { fieldError } from '../../server/http/errors';
import type { HandlerContext } from '../../server/http/handlers';
import { defineManagedHandlers } from '../../server/managed/handlers';
import { type Drift, defineManagedKind } from '../../server/managed/kind';
import type { ManagedRow } from '../../server/managed/table';
import { revokeKeysOfLeavers } from './serverRevocation';

/** `removing` besides the managed states: its adder lost the server (see serverRevocation.ts). */
export type PubkeyRow = Omit<ManagedRow, 'status'> &
  Omit<PubkeysTable, 'id' | keyof ManagedRow> & { status: PubkeysTable['status'] };

/** SSH keys in a system user's authorized_keys (spec `pubkeys`) as a server-managed kind. */
export const pubkeyKind = defineManagedKind<PubkeyRow & ManagedRow>({
  resource: 'pubkeys',
  table: 'pubkeys',
  noun: (row) => `SSH key "${row.label}" of ${row.user_name}`,
  says: (action, row) =>
    action === 'create'
      ? `Add SSH key "${row.label}" for ${row.user_name}`
      : action === 'delete'
        ? `Remove SSH key "${row.label}" of ${row.user_name}`
        : undefined,
  async apply(op, row) {
    // De-duplicated by fingerprint on the server: applying again adds nothing.
    await op('pubkeys.add', { user_name: row.user_name, key: row.public_key });
  },
  async remove(op, row) {
    await op('pubkeys.remove', { user_name: row.user_name, fingerprint: row.fingerprint });
  },
  async readBack(op, rows) {
    const drift = new Map<number, Drift>();
    for (const user of new Set(rows.map((r) => r.user_name))) {
      const held = new Set(
        (await op('pubkeys.list', { user_name: user })).map((k) => k.fingerprint),
      );
      for (const row of rows.filter((r) => r.user_name === user && r.status === 'active'))
        if (!held.has(row.fingerprint)) drift.set(row.id, 'missing');
    }
    return drift;
  },
});

const record = ({ public_key: _key, server_id: _server, updated_at: _at, ...rest }: PubkeyRow) =>
  rest;

// The row is named: its `removing` state (serverRevocation.ts) is not one of the managed ones.
const bound = defineManagedHandlers<typeof pubkeys, PubkeyRow & ManagedRow>(pubkeys, pubkeyKind, {
  async create(ctx, { label, user_name, key }) {
    const server = ctx.server;
    if (user_name !== 'root') {
      const owner = await ctx.app.services.serverAccounts.findUserByName(server.id, user_name);
      if (owner?.status !== 'active')
        throw fieldError('user_name', 'No such system user on this server');
    }
    const { type, fingerprint } = sshFingerprint(key);
    if (
      await ctx.app.services.serverAccounts.findKeyByFingerprint(server.id, user_name, fingerprint)
    )
      throw fieldError('key', 'This key is there already');
    // The key rides on the access of the path's user: the owner, or a member reaching the
    // server through a team. An admin acting for a member adds it as that member, so it goes
    // when the member does (the admin stays named in the activity line, as the actor).
    return { user_name, label, type, fingerprint, public_key: key, added_by: ctx.uid };
  },
  record,
  async records(ctx: HandlerContext, rows) {
    const withAdders = await ctx.app.services.serverAccounts.withAdders(rows, ctx.server.user_id);
    return withAdders.map((row) => record(row as unknown as PubkeyRow));
  },
});

type Handler = (ctx: HandlerContext) => Promise<unknown>;
const create = bound.handlers.create as Handler;

/** The generic handlers; an add whose adder lost the server meanwhile is taken off at once. */
export const pubkeyHandlers = {
  ...bound,
  handlers: {
    ...bound.handlers,
    async create(ctx: HandlerContext) {
      const answer = await create(ctx);
      const id = (answer as { id?: number } | undefined)?.id;
      if (id !== undefined) {
        const row = await ctx.app.services.serverAccounts.reloadKey({
          id,
          server_id: ctx.server.id,
        });
        if (row?.status === 'removing')
          await revokeKeysOfLeavers(ctx.app, [ctx.server.id], ctx.caller ?? null);
      }
      return answer;
    },
  },
};
