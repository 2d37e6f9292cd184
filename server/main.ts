import { build, loggerOptions } from './app';
import { ensureAdmin } from './bootstrap';
import { loadConfig } from './config';
import { testClockFrom } from './testClock';

/** `npm start`: build, create the first admin, listen, and shut down gracefully on signals. */
async function main() {
  const config = loadConfig();
  // Tests only (server/testClock.ts): refused unless on loopback and not NODE_ENV=production.
  const clock = testClockFrom(process.env, config.host);
  const app = await build({ config, logger: loggerOptions(config.logLevel), clock });
  const admin = await ensureAdmin(app);
  await app.listen({ port: config.port, host: config.host });

  const lines = [`Stackdeck is running: ${config.publicUrl}/login`];
  if (admin) {
    lines.push(`  admin email:    ${admin.email}`);
    lines.push(
      admin.generatedPassword
        ? `  admin password: ${admin.generatedPassword}   (shown once; change it under My Profile)`
        : '  admin password: the one in ADMIN_PASSWORD',
    );
  }
  lines.push(
    `  data:           ${app.dialect === 'sqlite' ? config.dataDir : 'PostgreSQL (DATABASE_URL)'}`,
  );
  lines.push(`  API docs:       ${config.publicUrl}/api/docs`);
  if (clock) lines.push(`  TEST CLOCK:     ${process.env.STACKDECK_TEST_CLOCK} (not for real use)`);
  if (!config.smtpUrl) {
    // Codes are masked in the outbox (no admin can read them), so without SMTP a new user's
    // confirmation code reaches no one: say how they get in.
    lines.push(
      '  mail:           no SMTP_URL: mail stays in the outbox, its codes masked. A second user',
      '                  gets in when an admin confirms them (Admin → Users → Confirm) or with',
      '                  npx stackdeck confirm-user --email THEIR@EMAIL',
    );
  }
  // The console, not the log: the generated password must not land in a log file.
  process.stdout.write(`\n${lines.join('\n')}\n\n`);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000).unref();
    try {
      await app.close();
      clearTimeout(force);
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
