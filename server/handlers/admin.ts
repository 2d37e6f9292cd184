import { adminDashboard, adminUsers } from '../../resources/admin-users';
import { outbox } from '../../resources/outbox';
import { toCount } from '../db/database';
import { forbidden, notFound } from '../http/errors';
import { defineHandlers } from '../http/handlers';
import { mails } from '../mail/templates';
import { containsText, pageOf } from '../repositories/paging';
import { recordActivity } from './activity';
import { listAdminUsers } from './adminUserList';

export const adminUserHandlers = defineHandlers(adminUsers, {
  async list(ctx) {
    const page = await listAdminUsers(ctx.app.db, ctx.query);
    return {
      total: page.total,
      data: page.data.map((u) => ({
        ...u,
        is_admin: Boolean(u.is_admin),
        is_admin_staff: Boolean(u.is_admin_staff),
        confirmed: Boolean(u.confirmed),
        disabled: Boolean(u.disabled),
      })),
    };
  },
  actions: {
    async actAs(ctx) {
      const target = await ctx.app.services.users.findById(ctx.uid);
      if (!target) throw notFound();
      if (target.is_admin) throw forbidden('Admins cannot act as other admins');
      if (target.disabled) throw forbidden('This account is disabled');
      const Token = await ctx.app.services.sessions.issue(target.id, ctx.origin, ctx.caller!.id);
      await recordActivity(ctx, 'An admin started acting as this user', target.id);
      return { User: { id: target.id, is_admin: false, plan_id: target.plan_id }, Token };
    },
    async confirm(ctx) {
      const { users } = ctx.app.services;
      const target = await users.findById(ctx.uid);
      if (!target) throw notFound();
      if (!target.confirmed) {
        await users.update(target.id, { confirmed: 1 });
        await recordActivity(ctx, 'Account confirmed by an admin', target.id);
      }
      return { confirmed: true as const };
    },
    async sendPasswordReset(ctx) {
      const { users, codes, mailer } = ctx.app.services;
      const target = await users.findById(ctx.uid);
      if (!target) throw notFound();
      if (target.disabled) throw forbidden('This account is disabled');
      const request = await codes.issue(target.id, 'reset');
      const link = `${ctx.app.config.publicUrl}/confirm-account-for-password-reset?id=${request.id}`;
      await mailer.send(mails.resetPassword(target.email, request.code, link));
      await recordActivity(ctx, 'Password reset mail sent by an admin', target.id);
      return { sent: true as const };
    },
    async setState(ctx) {
      const { users, sessions } = ctx.app.services;
      const target = await users.findById(ctx.query.uid);
      if (!target) throw notFound();
      const disabled = ctx.body.state === 'disabled';
      // The panel keeps at least the admin making the call: nobody locks themselves out here.
      if (disabled && target.id === ctx.caller!.id)
        throw forbidden('You cannot disable your own account');
      if (Boolean(target.disabled) !== disabled) {
        await users.update(target.id, { disabled: disabled ? 1 : 0 });
        await recordActivity(
          ctx,
          disabled ? 'Account disabled by an admin' : 'Account enabled by an admin',
          target.id,
        );
      }
      // Every session of the account, and every impersonation token it holds as an admin, is
      // revoked (their live sockets close); run again on a repeated call, it costs nothing.
      if (disabled) await sessions.revokeAll(target.id);
      return { id: target.id, disabled };
    },
  },
});

export const adminDashboardHandlers = defineHandlers(adminDashboard, {
  actions: {
    async stats(ctx) {
      const { users, servers } = ctx.app.services;
      const monthAgo = new Date(Date.now() - 30 * 86_400_000).toISOString();
      return {
        users: await users.count(),
        confirmed_users: await users.count({ confirmed: true }),
        admins: await users.count({ admins: true }),
        servers: await servers.count(),
        connected_servers: await servers.count({ connected: true }),
        signups_last_30_days: await users.count({ since: monthAgo }),
      };
    },
  },
});

const outboxColumns = [
  'id',
  'to_addr',
  'subject',
  'text_body',
  'created_at',
  'sent_at',
  'error',
] as const;
type OutboxRow = {
  id: number;
  to_addr: string;
  subject: string;
  text_body: string;
  created_at: string;
  sent_at: string | null;
  error: string | null;
};
const toMail = ({ to_addr, text_body, ...rest }: OutboxRow) => ({
  ...rest,
  to: to_addr,
  text: text_body,
});

export const outboxHandlers = defineHandlers(outbox, {
  async list(ctx) {
    let query = ctx.app.db.selectFrom('outbox').select(outboxColumns);
    const q = ctx.query.q;
    if (q)
      query = query.where((eb) => eb.or([containsText('to_addr', q), containsText('subject', q)]));
    const page = await pageOf(query, ctx.query, ['created_at']);
    return { total: toCount(page.total), data: page.data.map(toMail) };
  },
  async get(ctx) {
    const row = await ctx.app.db
      .selectFrom('outbox')
      .select(outboxColumns)
      .where('id', '=', Number(ctx.params.id))
      .executeTakeFirst();
    if (!row) throw notFound();
    return toMail(row);
  },
  actions: {},
});
