import type { users } from '../../../resources/users';
import { emit } from '../../events/emit';
import type { PayloadOf } from '../../events/types';
import { HttpError, forbidden, notFound } from '../../http/errors';
import type { ResourceHandlers } from '../../http/handlers';
import { reauthenticate } from '../../auth/reauth';
import { profilePatch, toUserRecord } from '../../repositories/users';
import { recordActivity } from '../activity';
import { removeServer } from '../servers/removal';

type Handlers = ResourceHandlers<typeof users>;

export const profileHandlers: Pick<Handlers, 'get' | 'update'> = {
  async get(ctx) {
    // Reading one's own record: the auth hook has just read the row.
    if (ctx.caller?.id === ctx.uid) return toUserRecord(ctx.caller.row, ctx.caller.photoUpdatedAt);
    const record = await ctx.app.services.users.record(ctx.uid);
    if (!record) throw notFound();
    return record;
  },

  async update(ctx) {
    const { users } = ctx.app.services;
    const user = await users.findById(ctx.uid);
    if (!user) throw notFound();
    // The fields other features own (the password, two-factor sign-in) are theirs to check.
    const others: PayloadOf<'user.updating'> = { ctx, user, patch: {}, messages: [] };
    await emit(ctx.app, 'user.updating', others);
    const profile = profilePatch(ctx.body);
    const patch = { ...profile, ...others.patch };
    if (Object.keys(patch).length) {
      const updated = await users.update(user.id, patch);
      if (Object.keys(profile).length) await recordActivity(ctx, 'Profile updated');
      for (const message of others.messages) await recordActivity(ctx, message);
      await emit(ctx.app, 'user.updated', { ctx, user: updated });
    }
    return (await users.record(user.id))!;
  },
};

export const profileActions: Pick<
  Handlers['actions'],
  'delete' | 'email' | 'photo' | 'setPhoto' | 'deletePhoto'
> = {
  /** DELETE users/{uid}: only the holder, proven by the password (and second factor). */
  async delete(ctx) {
    const { users, sessions } = ctx.app.services;
    if (ctx.caller?.actorId) throw forbidden('Switch back to your own account to delete users');
    const user = await users.findById(ctx.uid);
    if (!user) throw notFound();
    await reauthenticate(ctx.app.services, user, ctx.body, ctx.app.services.clock);
    if (user.is_admin && (await users.count({ admins: true })) <= 1) {
      throw new HttpError(409, 'The last admin cannot be deleted');
    }
    // What the features keep of the user outside its rows goes first (a refusal keeps it all).
    await emit(ctx.app, 'user.deleting', { user: { id: user.id, email: user.email } });
    // Ends its sessions first, so its open live sockets close too.
    await sessions.revokeAll(user.id);
    // Its servers leave the panel one by one as a deletion would take each (features let go,
    // agents remove themselves), not by the rows' cascade alone.
    const own = await ctx.app.db
      .selectFrom('servers')
      .selectAll()
      .where('user_id', '=', user.id)
      .execute();
    for (const server of own) await removeServer(ctx.app, server, ctx.req.log);
    await users.delete(user.id);
    // What it held on servers of others (keys it added as a team member) goes with it.
    await emit(ctx.app, 'user.deleted', { user: { id: user.id, email: user.email } });
    return { id: user.id, email: user.email };
  },

  async email(ctx) {
    const user = await ctx.app.services.users.findById(ctx.uid);
    if (!user) throw notFound();
    return { email: user.email };
  },
  async photo(ctx) {
    if (!(await ctx.app.services.users.findById(ctx.uid))) throw notFound();
    return { user_id: ctx.uid, data: await ctx.app.services.users.photo(ctx.uid) };
  },
  async setPhoto(ctx) {
    if (!(await ctx.app.services.users.findById(ctx.uid))) throw notFound();
    await ctx.app.services.users.setPhoto(ctx.uid, ctx.body.data);
    await recordActivity(ctx, 'Profile photo changed');
    return { user_id: ctx.uid, data: ctx.body.data };
  },
  async deletePhoto(ctx) {
    if (!(await ctx.app.services.users.findById(ctx.uid))) throw notFound();
    await ctx.app.services.users.setPhoto(ctx.uid, null);
    await recordActivity(ctx, 'Profile photo removed');
    return { user_id: ctx.uid, data: null };
  },
};
