/**
 * A run of a 911 script: the one-time code is checked and spent before anything reaches a
 * server, the run is written bound to that code, then each server runs the script's op as a
 * task of the admin (its progress lines the output the page streams), with a line in the
 * server's activity and one in the admin's account activity. The code itself is never stored.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { OpProgress } from '../../resources/agent/protocol';
import { AgentOfflineError, AgentOpError, AgentTimeoutError } from '../../server/agents/hub';
import type { ServerRow } from '../../server/db/schema';
import { recordActivity } from '../../server/handlers/activity';
import { fieldError } from '../../server/http/errors';
import type { ActionContext } from '../../server/http/handlers';
import { whoOf } from '../../server/http/who';
import type { EmergencyRun, emergencyScripts } from './resource';
import { type ScriptId, type ScriptParams, foreignParam, paramsFor, scriptInfo } from './scripts';
import type { EmergencyRunsTable } from './serverTables';

type RunContext = ActionContext<typeof emergencyScripts, 'run'>;
type Target = EmergencyRun['servers'][number];

const BAD_CODE = 'Invalid, used or expired code: ask for a new one';

/**
 * Spends the admin's newest live code if `otp` is it. Returns the code's row id, which the run
 * keeps (unique): the code then confirmed this run and can confirm no other.
 */
async function spendCode(ctx: RunContext, adminId: number): Promise<string> {
  const { db, services } = ctx.app;
  const latest = await db
    .selectFrom('one_time_codes')
    .select('id')
    .where('user_id', '=', adminId)
    .where('purpose', '=', 'verify')
    .where('used_at', 'is', null)
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
  const owner = latest
    ? await services.codes.checkById(latest.id, 'verify', ctx.query.otp, true)
    : null;
  if (!latest || owner !== adminId) {
    await recordActivity(ctx, '911 script refused: wrong, used or expired one-time code', adminId);
    throw fieldError('otp', BAD_CODE);
  }
  return latest.id;
}

/** The servers named, any user's, in the order given; an unknown id is the field's error. */
async function serversOf(ctx: RunContext): Promise<ServerRow[]> {
  const ids = ctx.body.servers;
  const rows = await ctx.app.db.selectFrom('servers').selectAll().where('id', 'in', ids).execute();
  const missing = ids.find((id) => !rows.some((row) => row.id === id));
  if (missing !== undefined) throw fieldError('servers', `No server #${missing}`);
  return ids.map((id) => rows.find((row) => row.id === id)!);
}

/** The script's op on one server, with its own argument types. */
function callScript(
  app: FastifyInstance,
  serverId: number,
  script: ScriptId,
  params: ScriptParams,
  options: { opId: string; onProgress: (p: OpProgress) => void },
): Promise<{ summary: string }> {
  const { agents } = app;
  switch (script) {
    case 'restart-web-stack':
      return agents.call(serverId, 'emergency.restart-web-stack', {}, options);
    case 'free-disk':
      return agents.call(
        serverId,
        'emergency.free-disk',
        { keep_days: params.keep_days! },
        options,
      );
    case 'unlock-package-manager':
      return agents.call(
        serverId,
        'emergency.unlock-package-manager',
        { wait_seconds: params.wait_seconds!, kill_stale: params.kill_stale! },
        options,
      );
    case 'restart-database':
      return agents.call(serverId, 'emergency.restart-database', {}, options);
    case 'disk-usage':
      return agents.call(serverId, 'emergency.disk-usage', {}, options);
  }
}

/**
 * Starts the script on one server and answers its task at once; the op's lines become the
 * task's events in order, its end the task's end and the activity line's outcome. A reply that
 * comes after the op's time-out reaches the task through the panel's orphan handling.
 */
async function startOn(
  ctx: RunContext,
  server: ServerRow,
  script: ScriptId,
  params: ScriptParams,
): Promise<Target> {
  const { app } = ctx;
  const { tasks, serverLog } = app.services;
  const caller = ctx.caller!;
  const info = scriptInfo(script);
  const opId = randomUUID();
  const taskId = await tasks.create({
    userId: caller.id,
    serverId: server.id,
    kind: 'script',
    name: `${info.name} on ${server.name}`,
    opId,
  });
  await tasks.addEvent(taskId, `${info.name} on ${server.name}, started by ${caller.email}`, 0);
  const entry = await serverLog.begin({
    serverId: server.id,
    userId: server.user_id,
    actorId: server.user_id === caller.id ? null : caller.id,
    who: await whoOf(app.db, caller, server.user_id),
    message: `911 script: ${info.name}`,
  });
  let writing = Promise.resolve();
  const onProgress = (p: OpProgress) => {
    writing = writing.then(() => tasks.addEvent(taskId, p.event, p.code));
  };
  const settle = async (error: string | null, summary?: string) => {
    await writing;
    // The activity line first: once the task shows its end, the audit already does.
    await serverLog.finish(entry, error);
    const last = (await tasks.events(taskId)).at(-1)?.code ?? 0;
    await tasks.addEvent(taskId, error ?? summary ?? 'Done', error ? last : 10);
    await tasks.finish(taskId, error ? 'failed' : 'completed');
  };
  void callScript(app, server.id, script, params, { opId, onProgress })
    .then(
      (result) => settle(null, result.summary),
      async (error: unknown) => {
        if (error instanceof AgentTimeoutError) {
          await writing;
          await tasks.addEvent(taskId, 'Waiting for the server to report the end', 9);
          return;
        }
        if (!(error instanceof AgentOpError || error instanceof AgentOfflineError))
          app.log.error({ err: error, script }, '911 script failed');
        await settle(
          error instanceof AgentOpError || error instanceof AgentOfflineError
            ? error.message
            : 'The script failed',
        );
      },
    )
    .catch((err: unknown) => app.log.error({ err, taskId }, 'settling a 911 script failed'));
  return { server_id: server.id, server_name: server.name, task_id: taskId };
}

/** `PATCH admin/common-script?otp=`: checks, spends the code, writes the run, starts it. */
export async function runScript(ctx: RunContext): Promise<EmergencyRun> {
  const caller = ctx.caller!;
  const { script, params: given } = ctx.body;
  const extra = foreignParam(script, given);
  if (extra) throw fieldError(`params.${extra}`, `"${scriptInfo(script).name}" takes no ${extra}`);
  const servers = await serversOf(ctx);
  const codeId = await spendCode(ctx, caller.id);
  const params = paramsFor(script, given);
  const createdAt: EmergencyRunsTable['created_at'] = new Date(
    ctx.app.services.clock(),
  ).toISOString();
  const { db } = ctx.app;
  const run = await db
    .insertInto('emergency_runs')
    .values({
      script,
      params: JSON.stringify(params),
      admin_id: caller.id,
      admin_email: caller.email,
      otp_code_id: codeId,
      servers: '[]',
      created_at: createdAt,
    })
    .returning('id')
    .executeTakeFirst()
    .catch(() => undefined);
  // Spent above; the unique index is the last line should two panels both get past the check.
  if (!run) throw fieldError('otp', BAD_CODE);
  const targets: Target[] = [];
  for (const server of servers) targets.push(await startOn(ctx, server, script, params));
  await db
    .updateTable('emergency_runs')
    .set({ servers: JSON.stringify(targets) })
    .where('id', '=', run.id)
    .execute();
  const names = servers.map((s) => s.name).join(', ');
  await recordActivity(
    ctx,
    `Ran the 911 script "${scriptInfo(script).name}" on ${names}`,
    caller.id,
  );
  return { id: run.id, script, servers: targets, created_at: createdAt };
}
