import type { users } from '../../../resources/users';
import { HttpError, forbidden, notFound } from '../../http/errors';
import type { ResourceHandlers } from '../../http/handlers';
import { profilePatch, toUserRecord } from '../../repositories/users';
import { recordActivity } from '../activity';
import { afterPasswordChange, securityChanges } from './security';

type Handlers = ResourceHandlers<typeof users>;

export const profileHandlers: Pick<Handlers, 'get' | 'update' | 'delete'> = {
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
    const security = await securityChanges(ctx, user);
    const profile = profilePatch(ctx.body);
    const patch = { ...profile, ...security.patch };
    if (Object.keys(patch).length) {
      const updated = await users.update(user.id, patch);
      if (Object.keys(profile).length) await recordActivity(ctx, 'Profile updated');
      for (const message of security.messages) await recordActivity(ctx, message);
      if (security.passwordChanged) await afterPasswordChange(ctx, updated);
    }
    return (await users.record(user.id))!;
  },

  async delete(ctx) {
    const { users } = ctx.app.services;
    if (ctx.caller?.actorId) throw forbidden('Switch back to your own account to delete users');
    const user = await users.findById(ctx.uid);
    if (!user) throw notFound();
    if (user.is_admin && (await users.count({ admins: true })) <= 1) {
      throw new HttpError(409, 'The last admin cannot be deleted');
    }
    await users.delete(user.id);
    return { id: user.id, email: user.email };
  },
};

export const profileActions: Pick<
  Handlers['actions'],
  'email' | 'photo' | 'setPhoto' | 'deletePhoto'
> = {
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
