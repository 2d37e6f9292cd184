/**
 * Deploys as tasks: each is a row of git_deploys (the app's history) and a task of its owner
 * (the messages panel, pushed live), the agent's progress its events, the clone's and script's
 * output kept with the row. One deploy of an app runs at a time; a webhook that comes in
 * during one queues a single follow-up (git_configs.deploy_queued), started at its end.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { AgentOpError, AgentTimeoutError } from '../../server/agents/hub';
import { now } from '../../server/db/database';
import type { ServerRow } from '../../server/db/schema';
import { HttpError } from '../../server/http/errors';
import { SYSTEM_WHO } from '../../server/http/who';
import type { WebappRow } from '../webapps/serverApi';
import type { deployResult, GitDeploy } from './resource';
import type { GitConfigRow, GitDeployRow } from './serverTables';

/** A deploy of the app is under way: a manual deploy is refused with it, a webhook queues. */
export class DeployRunning extends HttpError {
  constructor(name: string) {
    super(409, `A deploy of ${name} is running: wait for its end`);
  }
}

type Trigger = GitDeployRow['trigger'];
type Result = z.output<typeof deployResult>;

export const primaryDomain = (app: Pick<WebappRow, 'domains'>) =>
  (JSON.parse(app.domains) as string[])[0]!;

export const deployRecord = (row: GitDeployRow): GitDeploy => ({
  id: row.id,
  status: row.status,
  trigger: row.trigger,
  branch: row.branch,
  commit: row.commit,
  release: row.release,
  output: row.output,
  message: row.message,
  task_id: row.task_id,
  created_at: row.created_at,
  finished_at: row.finished_at,
});

export async function runningDeploy(app: FastifyInstance, webappId: number) {
  return app.db
    .selectFrom('git_deploys')
    .selectAll()
    .where('webapp_id', '=', webappId)
    .where('status', '=', 'running')
    .executeTakeFirst();
}

/** Writes a deploy's end: the row, the task's last event and its status. */
async function settle(
  app: FastifyInstance,
  row: GitDeployRow,
  result: Pick<Result, 'status' | 'message'> & Partial<Result>,
) {
  const { tasks } = app.services;
  // The task first: whoever sees the deploy's end then finds its task ended too.
  if (row.task_id !== null) {
    const done = result.status === 'completed';
    await tasks.addEvent(
      row.task_id,
      done ? `Deployed ${result.commit?.slice(0, 12) ?? ''}`.trim() : (result.message ?? 'Failed'),
      10,
    );
    await tasks.finish(row.task_id, done ? 'completed' : 'failed');
  }
  await app.db
    .updateTable('git_deploys')
    .set({
      status: result.status,
      commit: result.commit ?? row.commit,
      release: result.release ?? row.release,
      output: result.output ?? row.output,
      message: result.message,
      finished_at: now(),
    })
    .where('id', '=', row.id)
    .where('status', '=', 'running')
    .execute();
  await drainQueue(app, row.webapp_id);
}

/**
 * Starts a deploy of the configured branch and answers at once; the agent's work goes on in
 * the background. A server offline, or a deploy of the app already running, is a 409.
 */
/** A finished line in the server's activity log for a deploy or a rollback. */
export async function logDeploy(
  app: FastifyInstance,
  server: ServerRow,
  who: string,
  message: string,
  error: string | null,
) {
  const { serverLog } = app.services;
  const entry = await serverLog.begin({
    serverId: server.id,
    userId: server.user_id,
    actorId: null,
    who,
    message,
  });
  await serverLog.finish(entry, error);
}

export async function startDeploy(
  app: FastifyInstance,
  server: ServerRow,
  webapp: WebappRow,
  config: GitConfigRow,
  trigger: Trigger,
  /** Who started it, for the server's activity log (server/http/who.ts). */
  who = `${SYSTEM_WHO} (${trigger})`,
): Promise<{ id: number; task_id: number }> {
  if (!(await app.agents.isOnline(server.id)))
    throw new HttpError(409, 'The server is offline: its agent is not connected');
  if (await runningDeploy(app, webapp.id)) throw new DeployRunning(webapp.name);
  // This deploy clones the branch's head after this point: it covers any push queued before.
  await app.db
    .updateTable('git_configs')
    .set({ deploy_queued: 0 })
    .where('webapp_id', '=', webapp.id)
    .execute();
  const { tasks } = app.services;
  const opId = randomUUID();
  const taskId = await tasks.create({
    userId: server.user_id,
    serverId: server.id,
    kind: 'gitdeploy',
    // The messages panel words it "Deploy of <app>".
    name: webapp.name,
    opId,
  });
  // The deploy itself runs as a task (its history keeps the outcome); the log says who began it.
  await logDeploy(app, server, who, `Deploy ${config.branch} to ${webapp.name} (${trigger})`, null);
  const inserted = await app.db
    .insertInto('git_deploys')
    .values({
      server_id: server.id,
      webapp_id: webapp.id,
      task_id: taskId,
      trigger,
      status: 'running',
      branch: config.branch,
      commit: null,
      release: null,
      output: '',
      message: null,
      created_at: now(),
      finished_at: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await tasks.addEvent(taskId, `Deploying ${config.branch} (${trigger})`, 1);
  let writing = Promise.resolve();
  void app.agents
    .call(
      server.id,
      'gitdeploy.deploy',
      {
        sys_user: webapp.sys_user,
        app: webapp.name,
        repository: config.repository,
        known_hosts: JSON.parse(config.host_keys) as string[],
        outbound_allow: app.config.outboundAllow,
        branch: config.branch,
        script: config.script,
        domain: primaryDomain(webapp),
        health_path: config.health_path,
      },
      {
        opId,
        onProgress: (p) => {
          writing = writing.then(() => tasks.addEvent(taskId, p.event, p.code));
        },
      },
    )
    .then(
      async (result) => {
        await writing;
        await settle(app, inserted, result);
      },
      async (error: unknown) => {
        await writing;
        // The agent goes on and replies on its next connection: the sweeper settles it then.
        if (error instanceof AgentTimeoutError) return;
        const message = error instanceof AgentOpError ? error.message : 'The deploy failed';
        if (!(error instanceof AgentOpError)) app.log.error({ err: error }, 'git deploy failed');
        await settle(app, inserted, { status: 'failed', message });
      },
    )
    .catch((err: unknown) => app.log.error({ err, taskId }, 'settling a git deploy failed'));
  return { id: inserted.id, task_id: taskId };
}

/** The app and server a configuration deploys to. */
export async function deployTarget(app: FastifyInstance, config: GitConfigRow) {
  const webapp = (await app.db
    .selectFrom('webapps')
    .selectAll()
    .where('id', '=', config.webapp_id)
    .executeTakeFirstOrThrow()) as WebappRow;
  const server = await app.db
    .selectFrom('servers')
    .selectAll()
    .where('id', '=', config.server_id)
    .executeTakeFirstOrThrow();
  return { webapp, server };
}

/**
 * Starts the deploy a webhook queued, if one is and no deploy of the app runs; its id, or null.
 * The flag is claimed by one conditional update: a deploy's end, a webhook and the sweeper
 * racing for it start one deploy.
 */
export async function drainQueue(app: FastifyInstance, webappId: number): Promise<number | null> {
  if (await runningDeploy(app, webappId)) return null;
  const claimed = await app.db
    .updateTable('git_configs')
    .set({ deploy_queued: 0 })
    .where('webapp_id', '=', webappId)
    .where('deploy_queued', '=', 1)
    .returningAll()
    .executeTakeFirst();
  if (!claimed) return null;
  try {
    const { webapp, server } = await deployTarget(app, claimed);
    return (await startDeploy(app, server, webapp, claimed, 'webhook')).id;
  } catch (error) {
    // A deploy started since the claim clones a head that has the queued push.
    if (error instanceof DeployRunning) return null;
    // The server offline, say: queued again, for the sweeper's next round.
    await app.db
      .updateTable('git_configs')
      .set({ deploy_queued: 1 })
      .where('id', '=', claimed.id)
      .execute();
    if (!(error instanceof HttpError)) app.log.error({ err: error }, 'a queued git deploy failed');
    return null;
  }
}

/**
 * Queues a deploy after the running one (a webhook's push); whether none was queued before and,
 * if the running deploy ended meanwhile, the id of the deploy started now.
 */
export async function queueDeploy(app: FastifyInstance, config: GitConfigRow) {
  const set = await app.db
    .updateTable('git_configs')
    .set({ deploy_queued: 1 })
    .where('id', '=', config.id)
    .where('deploy_queued', '=', 0)
    .executeTakeFirst();
  // The running deploy may have ended, finding no flag, between its 409 and this flag.
  const started = await drainQueue(app, config.webapp_id);
  return { fresh: Number(set.numUpdatedRows) > 0, started };
}

/**
 * Deploys left running by a panel that stopped or lost the agent's answer: their task was
 * ended by the agent's late reply or by reconcileTasks; the deploy takes the task's end.
 */
export async function sweepDeploys(app: FastifyInstance): Promise<number> {
  const stale = await app.db
    .selectFrom('git_deploys')
    .innerJoin('tasks', 'tasks.id', 'git_deploys.task_id')
    .select(['git_deploys.id as id', 'tasks.status as task_status'])
    .where('git_deploys.status', '=', 'running')
    .where('tasks.status', '!=', 'running')
    // A minute after the task's end: a live deploy writes its task's end just before its own.
    .where('tasks.updated_at', '<', new Date(Date.now() - 60_000).toISOString())
    .execute();
  for (const row of stale) {
    const status = row.task_status === 'completed' ? 'completed' : 'failed';
    await app.db
      .updateTable('git_deploys')
      .set({
        status,
        message: 'Settled from its task, after the panel lost the answer',
        finished_at: now(),
      })
      .where('id', '=', row.id)
      .where('status', '=', 'running')
      .execute();
  }
  // Queued deploys whose start failed (server offline) or whose panel stopped before the end.
  const queued = await app.db
    .selectFrom('git_configs')
    .select('webapp_id')
    .where('deploy_queued', '=', 1)
    .execute();
  for (const { webapp_id } of queued) await drainQueue(app, webapp_id);
  return stale.length;
}
