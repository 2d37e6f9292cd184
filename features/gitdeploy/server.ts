import { readOp } from '../../server/agents/runOp';
import { whoOf } from '../../server/http/who';
import { now } from '../../server/db/database';
import { defineServerFeature } from '../../server/feature';
import { defineJob, defineSchedule } from '../../server/jobs/define';
import type { HandlerContext } from '../../server/http/handlers';
import { defineHandlers, webappOf } from '../../server/http/handlers';
import { z } from 'zod';
import { gitdeploy, githooks, type rollbackBody } from './resource';
import {
  branches,
  configOf,
  configure,
  recordOf,
  remove,
  setWebhook,
  update,
  webhook,
  webhookSecret,
} from './serverConfig';
import {
  DeployRunning,
  deployRecord,
  primaryDomain,
  runningDeploy,
  logDeploy,
  startDeploy,
  sweepDeploys,
} from './serverDeploy';
import { receive } from './serverHook';
import { migration, queueMigration } from './serverTables';

async function deployNow(ctx: HandlerContext) {
  const config = await configOf(ctx);
  const who = await whoOf(ctx.app.db, ctx.caller, ctx.server.user_id);
  return startDeploy(ctx.app, ctx.server, webappOf(ctx), config, 'manual', who);
}

async function deploys(ctx: HandlerContext<{ page: number; perPage: number }>) {
  const app = webappOf(ctx);
  const { page, perPage } = ctx.query;
  const base = ctx.app.db.selectFrom('git_deploys').where('webapp_id', '=', app.id);
  const rows = await base
    .selectAll()
    .orderBy('id', 'desc')
    .limit(perPage)
    .offset((page - 1) * perPage)
    .execute();
  const { total } = await base
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .executeTakeFirstOrThrow();
  return { data: rows.map(deployRecord), total: Number(total) };
}

/** The kept releases, the one served, and what a first deploy keeps (read on the server). */
async function releases(ctx: HandlerContext) {
  await configOf(ctx);
  const app = webappOf(ctx);
  return readOp(ctx, 'gitdeploy.releases', { sys_user: app.sys_user, app: app.name });
}

/**
 * Switches back to a kept release (by default the one before the current one): quick, so
 * answered in the call.
 */
async function rollback(ctx: HandlerContext<unknown, z.output<typeof rollbackBody> | undefined>) {
  const config = await configOf(ctx);
  const app = webappOf(ctx);
  if (await runningDeploy(ctx.app, app.id)) throw new DeployRunning(app.name);
  const result = await readOp(ctx, 'gitdeploy.rollback', {
    sys_user: app.sys_user,
    app: app.name,
    domain: primaryDomain(app),
    health_path: config.health_path,
    release: ctx.body?.release ?? null,
  });
  await logDeploy(
    ctx.app,
    ctx.server,
    await whoOf(ctx.app.db, ctx.caller, ctx.server.user_id),
    `Roll ${app.name} back to ${result.release ?? 'the previous release'}`,
    result.status === 'failed' ? (result.message ?? 'The rollback failed') : null,
  );
  const stamp = now();
  const row = await ctx.app.db
    .insertInto('git_deploys')
    .values({
      server_id: ctx.server.id,
      webapp_id: app.id,
      task_id: null,
      trigger: 'rollback',
      status: result.status,
      branch: config.branch,
      commit: result.release ? (result.release.split('-')[1] ?? null) : null,
      release: result.release,
      output: result.output,
      message: result.message,
      created_at: stamp,
      finished_at: stamp,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return deployRecord(row);
}

/** Deploys a stopped panel or a lost answer left running, and queued ones not started. */
const sweepDeploysJob = defineJob({
  name: 'gitdeploy.sweep',
  payload: z.object({}),
  retry: { limit: 0, backoffSeconds: 1 },
  timeoutSeconds: 10 * 60,
  concurrency: 1,
  handler: (ctx) => sweepDeploys(ctx.app),
});

export const server = defineServerFeature({
  migrations: { '0028_git_deploy': migration, '0029_git_deploy_queue': queueMigration },
  handlers: [
    defineHandlers(gitdeploy, {
      actions: {
        get: async (ctx) => recordOf(await configOf(ctx)),
        configure,
        update,
        remove,
        branches,
        webhook,
        webhookSecret,
        releases,
        setWebhook,
        deploy: deployNow,
        deploys,
        rollback,
      },
    }),
    defineHandlers(githooks, { actions: { receive } }),
  ],
  jobs: [sweepDeploysJob],
  schedules: [
    defineSchedule({
      name: 'gitdeploy.sweep',
      cron: '* * * * *',
      job: sweepDeploysJob,
      payload: {},
      atStart: true,
    }),
  ],
});
