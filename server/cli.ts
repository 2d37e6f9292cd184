import { parseArgs } from 'node:util';
import { email as emailRule } from '../resources/user-security';
import { build } from './app';
import { hashPassword } from './auth/passwords';
import { checkPassword, generatePassword } from './bootstrap';
import { loadConfig } from './config';
import { SYSTEM_WHO } from './http/who';

const USAGE = `Usage:
  stackdeck create-admin --email EMAIL [--password PASSWORD] [--name NAME]
  stackdeck reset-password --email EMAIL [--password PASSWORD]
  stackdeck confirm-user --email EMAIL

Reads DATA_DIR / DATABASE_URL like the panel. A password is generated and printed when not given.
confirm-user confirms an account whose confirmation mail reached no one (no SMTP_URL): the
outbox never shows codes.`;

export interface CliIo {
  env?: NodeJS.ProcessEnv;
  out?: (line: string) => void;
  err?: (line: string) => void;
}

/** The `stackdeck` command: exit status 0 done, 1 failed, 2 usage error. */
export async function runCli(argv: string[], io: CliIo = {}): Promise<number> {
  const { env = process.env, out = console.log, err = console.error } = io;
  const [command, ...rest] = argv;
  let values: { email?: string; password?: string; name?: string };
  try {
    ({ values } = parseArgs({
      args: rest,
      options: {
        email: { type: 'string' },
        password: { type: 'string' },
        name: { type: 'string' },
      },
    }));
  } catch (error) {
    err(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (
    !command ||
    !['create-admin', 'reset-password', 'confirm-user'].includes(command) ||
    !values.email ||
    (command === 'confirm-user' && (values.password !== undefined || values.name !== undefined))
  ) {
    err(USAGE);
    return 2;
  }
  const email = emailRule.safeParse(values.email.trim());
  if (!email.success) {
    err(`Not an email address: ${values.email}`);
    return 2;
  }
  const password = values.password ?? generatePassword();
  try {
    checkPassword(password, 'password');
  } catch (error) {
    err((error as Error).message);
    return 2;
  }

  const app = await build({ config: { ...loadConfig(env), webDir: null } });
  try {
    if (command === 'confirm-user') return await confirmUser(app, email.data, { out, err });
    const { users, sessions } = app.services;
    const password_hash = await hashPassword(password);
    const existing = await users.findByEmail(email.data);
    if (command === 'create-admin') {
      if (existing) {
        await users.update(existing.id, { is_admin: 1, confirmed: 1, password_hash });
        await sessions.revokeAll(existing.id);
        out(`${email.data} is now an admin.`);
      } else {
        await users.create({
          email: email.data,
          user_name: values.name ?? 'Admin',
          password_hash,
          is_admin: true,
          confirmed: true,
        });
        out(`Admin ${email.data} created.`);
      }
    } else {
      if (!existing) {
        err(`No user with the email ${email.data}.`);
        return 1;
      }
      await users.update(existing.id, { password_hash });
      await sessions.revokeAll(existing.id);
      out(`Password of ${email.data} reset; every session of that user was signed out.`);
    }
    if (!values.password) out(`Password: ${password}`);
    return 0;
  } finally {
    await app.close();
  }
}

/** Confirms an account, audited in its activity log (no actor: the install's operator). */
async function confirmUser(
  app: Awaited<ReturnType<typeof build>>,
  email: string,
  { out, err }: Required<Pick<CliIo, 'out' | 'err'>>,
): Promise<number> {
  const user = await app.services.users.findByEmail(email);
  if (!user) {
    err(`No user with the email ${email}.`);
    return 1;
  }
  if (!user.confirmed) {
    await app.services.users.update(user.id, { confirmed: 1 });
    await app.services.logs.activity({
      userId: user.id,
      actorId: null,
      who: SYSTEM_WHO,
      message: 'Account confirmed with the admin CLI',
      ip: 'cli',
    });
  }
  out(`${email} is confirmed: they can sign in now.`);
  return 0;
}
