/**
 * The admin's calls on an account: users' photos for a list, the credit history, and
 * `PATCH admin/update-user` (profile, sign-in address, staff role; audited with the admin).
 */
import { defineHandlers } from '../../server/http/handlers';
import { fieldError, notFound } from '../../server/http/errors';
import { recordActivity } from '../../server/handlers/activity';
import { profilePatch } from '../../server/repositories/users';
import type { UserPatch } from '../../server/db/schema';
import type { Mail } from '../../server/mail/mailer';
import { creditLedgerPage } from '../backups/serverApi';
import { adminAccounts, adminServers } from './resource';
import { listAdminServers } from './serverServers';
import type { AdminUserUpdate } from './schemas';

/** How the activity line names each profile column an admin changed. */
const COLUMN_WORDS: Record<string, string> = {
  user_name: 'name',
  company_name: 'company',
  addr_1: 'address',
  addr_2: 'address (second line)',
  city: 'city',
  state: 'state',
  postal_code: 'postal code',
  country: 'country',
  tax_num: 'tax number',
  time_zone: 'time zone',
};

const isUniqueViolation = (error: unknown) => {
  const e = error as { code?: string; message?: string };
  return e?.code === '23505' || /UNIQUE constraint failed/.test(e?.message ?? '');
};
/** To the address an admin moved the account away from: its holder learns it at once. */
const addressChanged = (from: string, to: string): Mail => ({
  to: from,
  subject: 'Your Stackdeck sign-in address was changed',
  text: `An administrator changed the address you sign in to Stackdeck with from ${from} to ${to}.\n\nIf you did not ask for this, reply to your administrator at once.\n`,
});

const emailTaken = () => fieldError('email', 'Another account uses this address');

export const adminServerHandlers = defineHandlers(adminServers, {
  async list(ctx) {
    return listAdminServers(ctx.app.db, ctx.query);
  },
  actions: {},
});

export const adminAccountHandlers = defineHandlers(adminAccounts, {
  actions: {
    async userImages(ctx) {
      const rows = await ctx.app.db
        .selectFrom('user_photos')
        .select(['user_id', 'data'])
        .where('user_id', 'in', ctx.query.ids)
        .orderBy('user_id')
        .execute();
      return { data: rows };
    },

    async creditHistory(ctx) {
      const { uid, page, perPage } = ctx.query;
      if (!(await ctx.app.services.users.findById(uid))) throw notFound('No such user');
      return {
        kind: 'backup-storage' as const,
        ...(await creditLedgerPage(ctx.app, uid, { page, perPage })),
      };
    },

    async updateUser(ctx) {
      const { users } = ctx.app.services;
      const { id, email, is_admin_staff, ...profile } = ctx.body;
      const target = await users.findById(id);
      if (!target) throw notFound('No such user');
      // Only what differs from the record is written and named in the account's activity.
      const patch: UserPatch = Object.fromEntries(
        Object.entries(profilePatch(profile as AdminUserUpdate)).filter(
          ([column, value]) => (target[column as keyof typeof target] ?? null) !== value,
        ),
      );
      const said: string[] = [];
      const changed = Object.keys(COLUMN_WORDS).filter((column) => column in patch);
      if (changed.length)
        said.push(
          `Profile changed by an admin (${changed.map((c) => COLUMN_WORDS[c]).join(', ')})`,
        );
      if (email !== undefined && email !== target.email) {
        // As with acting as one: a reset mail to an address of one admin's choosing would hand
        // them another admin's account.
        if (target.is_admin && target.id !== ctx.caller!.id)
          throw fieldError('email', 'Only that admin changes their own sign-in address');
        const other = await users.findByEmail(email);
        if (other && other.id !== target.id) throw emailTaken();
        patch.email = email;
        said.push(`Sign-in address changed by an admin from ${target.email} to ${email}`);
      }
      if (is_admin_staff !== undefined && is_admin_staff !== Boolean(target.is_admin_staff)) {
        patch.is_admin_staff = is_admin_staff ? 1 : 0;
        said.push(
          is_admin_staff ? 'Made admin staff by an admin' : 'Admin staff role removed by an admin',
        );
      }
      if (Object.keys(patch).length) {
        try {
          await users.update(target.id, patch);
        } catch (error) {
          // Two admins giving two accounts one address at once: the index decides.
          if (isUniqueViolation(error)) throw emailTaken();
          throw error;
        }
        for (const message of said) await recordActivity(ctx, message, target.id);
        if (patch.email)
          await ctx.app.services.mailer.send(addressChanged(target.email, patch.email));
      }
      return (await users.record(target.id))!;
    },
  },
});
