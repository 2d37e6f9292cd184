import { HttpError } from '../../server/http/errors';
import type { HandlerContext } from '../../server/http/handlers';
import type { App, AppRelease } from '../releases/api';
import { releaseToInstall } from '../releases/serverApi';
import type { WebappType } from '../webapps/api';
import type { WebappRow } from '../webapps/serverApi';
import { type InstallAnswer, type installBase } from './names';
import { holdTask } from './serverRecover';
import { fetchStep } from './serverRelease';
import { appPath, stepOp } from './serverStepOp';

export { appPath, fetchStep, stepOp };
import { generatedPassword } from './serverSecrets';
import {
  checkApp,
  databaseNameTaken,
  makeApp,
  makeDatabase,
  makeDbUser,
  removeApp,
  removeDatabase,
  removeDbUser,
} from './serverApp';
import type { DatabaseRow, DbUserRow } from '../databases/serverApi';
import { type Step, runSteps, wordsOf } from './serverSteps';
import type { z } from 'zod';

type AppFields = z.output<typeof installBase>;

export interface InstallPlan {
  /** The app's type, and the catalogue's name for it. */
  type: WebappType & App;
  /** How the messages panel names the work: `WordPress on blog.example.com`. */
  name: string;
  fields: AppFields;
  /** The folder of the app that is served (`public` when not given). */
  webRoot?: string;
  /** The steps after the app is made, given the app, the catalogue's release and the task. */
  steps(made: { app: WebappRow; release: AppRelease; taskId: number }): Step[];
  /** The last event of a completed install. */
  done: string;
  /** The admin login the answer shows once (null for an app without one). */
  login: InstallAnswer['login'];
}

/** Long work that makes a new web app first (an install, a clone). */
export interface AppTaskPlan {
  kind: 'install' | 'clone';
  type: WebappType;
  /** How the messages panel names the work. */
  name: string;
  fields: AppFields;
  webRoot?: string;
  /** The steps after the app is made. */
  steps(made: { app: WebappRow; taskId: number }): Step[];
  done: string;
  login: InstallAnswer['login'];
}

/**
 * Starts work that makes a new app as a task: the checks a form can show first (server online,
 * the app's name, domains and user), then the app itself (its id is in the answer), then the
 * plan's steps in the background, their events in the messages panel. A failed step undoes
 * every step before it, the app included.
 */
export async function startAppTask(
  ctx: HandlerContext,
  plan: AppTaskPlan,
  checked: () => Promise<void> = async () => undefined,
): Promise<InstallAnswer> {
  if (!(await ctx.app.agents.isOnline(ctx.server.id)))
    throw new HttpError(409, 'The server is offline: its agent is not connected');
  await checked();
  await checkApp(ctx, plan.fields, plan.type, plan.webRoot);

  const { tasks } = ctx.app.services;
  const taskId = await tasks.create({
    userId: ctx.uid,
    serverId: ctx.server.id,
    kind: plan.kind,
    name: plan.name,
  });
  // From here on a panel that stops is noticed, and what the task made is removed.
  const release = await holdTask(ctx.app, {
    id: taskId,
    serverId: ctx.server.id,
    appName: plan.fields.name,
  });
  await tasks.addEvent(taskId, 'Creating the web app', 1);
  let app: WebappRow;
  try {
    app = await makeApp(ctx, plan.fields, plan.type, plan.webRoot);
  } catch (error) {
    await tasks.addEvent(taskId, `Creating the web app failed: ${wordsOf(error)}`, 1);
    await tasks.finish(taskId, 'failed');
    await release();
    throw error;
  }
  const made: Step = {
    event: `Web app ${app.name} is made`,
    code: 1,
    run: async () => undefined,
    undo: () => removeApp(ctx, app.id),
  };
  void runSteps(ctx.app, taskId, [made, ...plan.steps({ app, taskId })], plan.done)
    .finally(release)
    .catch((err: unknown) => ctx.app.log.error({ err, taskId }, 'a task stopped'));
  ctx.reply.code(202);
  return { id: taskId, task_id: taskId, webapp_id: app.id, login: plan.login };
}

/** An install: a release of the app must be in the catalogue; the rest is startAppTask's. */
export async function startInstall(ctx: HandlerContext, plan: InstallPlan): Promise<InstallAnswer> {
  let release: AppRelease | null = null;
  return startAppTask(
    ctx,
    { ...plan, kind: 'install', steps: (made) => plan.steps({ ...made, release: release! }) },
    async () => {
      release = await releaseToInstall(ctx.app.db, plan.type);
    },
  );
}

/**
 * A database (and user) name for the app that the server does not have yet: `<prefix>_<app>`,
 * then `_2` ... `_9`.
 */
export async function freeDatabaseName(
  ctx: HandlerContext,
  prefix: string,
  app: string,
): Promise<string> {
  const base = `${prefix}_${app.replace(/-/g, '_')}`.slice(0, 29);
  for (let i = 1; i <= 9; i++) {
    const name = i === 1 ? base : `${base}_${i}`;
    if (!(await databaseNameTaken(ctx, name))) return name;
  }
  throw new HttpError(409, `The server has databases ${base} to ${base}_9: pick another app name`, {
    name: 'Its database name is taken: pick another app name',
  });
}

/**
 * The app's database and its database user (all privileges on it, the given password), as two
 * steps that each undo themselves.
 */
export function databaseSteps(
  ctx: HandlerContext,
  app: WebappRow,
  name: string,
  password: string,
): Step[] {
  let database: DatabaseRow | undefined;
  let user: DbUserRow | undefined;
  return [
    {
      event: `Creating the database ${name}`,
      code: 2,
      run: async () => void (database = await makeDatabase(ctx, app, name)),
      undo: async () => database && (await removeDatabase(ctx, database.id)),
    },
    {
      event: `Creating the database user ${name}`,
      code: 3,
      run: async () => void (user = await makeDbUser(ctx, app, name, password, [database!.id])),
      undo: async () => user && (await removeDbUser(ctx, user.id)),
    },
  ];
}

/** What an app installed with a database of its own needs to say (see installWithDatabase). */
export interface DatabaseInstall {
  type: WebappType & App;
  /** The app's name as people know it: "Nextcloud". */
  label: string;
  /** The first part of its database's (and database user's) name: `nc` makes `nc_<app>`. */
  dbPrefix: string;
  body: AppFields & { admin_user?: string; admin_password?: string | undefined };
  webRoot?: string;
  /** Where its admin signs in, from the primary domain; null for an app without an admin. */
  loginUrl: ((domain: string) => string) | null;
  /** The app's own installer, as an op of the server. */
  install(
    made: { app: WebappRow; taskId: number },
    db: { name: string; password: string },
    adminPassword: string,
  ): Promise<unknown>;
  /** What the app needs after its installer (its cron job), each step undoing itself. */
  after?(made: { app: WebappRow; taskId: number }): Step[];
}

/**
 * The usual install: the app, its database and database user (generated password), the
 * catalogue's release, then the app's own installer; the admin's password generated unless
 * given, and answered once.
 */
export async function installWithDatabase(
  ctx: HandlerContext,
  spec: DatabaseInstall,
): Promise<InstallAnswer> {
  const { body, label } = spec;
  const db = {
    name: await freeDatabaseName(ctx, spec.dbPrefix, body.name),
    password: generatedPassword(32),
  };
  const password = body.admin_password ?? generatedPassword(20);
  const { name, domains, sys_user, php_version, stack_type } = body;
  return startInstall(ctx, {
    type: spec.type,
    name: `${label} on ${domains[0]}`,
    fields: { name, domains, sys_user, php_version, stack_type },
    webRoot: spec.webRoot,
    done: `${label} is installed`,
    login:
      spec.loginUrl && body.admin_user
        ? { url: spec.loginUrl(domains[0]!), user: body.admin_user, password }
        : null,
    steps: ({ app, release, taskId }) => [
      ...databaseSteps(ctx, app, db.name, db.password),
      fetchStep(ctx, { app, release, taskId }, label),
      {
        event: `Installing ${label}`,
        code: 6,
        run: async () => void (await spec.install({ app, taskId }, db, password)),
      },
      ...(spec.after?.({ app, taskId }) ?? []),
    ],
  });
}
