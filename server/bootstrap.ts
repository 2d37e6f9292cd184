import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { password as passwordRule } from '../resources/user-security';
import { hashPassword } from './auth/passwords';

export interface AdminCredentials {
  email: string;
  /** Present only when generated here: printed once, stored nowhere in clear. */
  generatedPassword: string | null;
}

export function generatePassword(): string {
  return randomBytes(18).toString('base64url');
}

/** The password rule every account follows; the message names the setting that broke it. */
export function checkPassword(password: string, source: string): void {
  const result = passwordRule.safeParse(password);
  if (!result.success) throw new Error(`${source}: ${result.error.issues[0]?.message}`);
}

/**
 * The first start creates an admin: ADMIN_EMAIL/ADMIN_PASSWORD when set, otherwise
 * admin@localhost with a generated password that the caller prints once. Once any admin
 * exists it does nothing, so a restart never resets a password.
 */
export async function ensureAdmin(app: FastifyInstance): Promise<AdminCredentials | null> {
  const { users, sessions } = app.services;
  if ((await users.count({ admins: true })) > 0) return null;
  const email = (app.config.adminEmail ?? 'admin@localhost').trim().toLowerCase();
  if (app.config.adminPassword) checkPassword(app.config.adminPassword, 'ADMIN_PASSWORD');
  const generated = app.config.adminPassword ? null : generatePassword();
  const password_hash = await hashPassword(app.config.adminPassword ?? generated!);
  const existing = await users.findByEmail(email);
  if (existing) {
    await users.update(existing.id, { is_admin: 1, confirmed: 1, disabled: 0, password_hash });
    await sessions.revokeAll(existing.id);
  } else {
    await users.create({
      email,
      user_name: 'Admin',
      password_hash,
      is_admin: true,
      confirmed: true,
    });
  }
  return { email, generatedPassword: generated };
}
