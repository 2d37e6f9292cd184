import type { OpProgress } from '../../resources/agent/protocol';
import { emit } from '../../server/events/emit';
import { defineServerFeature } from '../../server/feature';
import { HttpError } from '../../server/http/errors';
import { defineHandlers, webappOf } from '../../server/http/handlers';
import type { HandlerContext } from '../../server/http/handlers';
import { ManagedStore } from '../../server/managed/store';
import type { DatabaseRow } from '../databases/serverApi';
import {
  appPath,
  freeDatabaseName,
  generatedPassword,
  generatedSalt,
  makeDatabase,
  makeDbUser,
  removeDatabase,
  removeDbUser,
  startAppTask,
  type Step,
  stepOp,
} from '../installers/serverApi';
import type { WebappType } from '../webapps/api';
import type { WebappRow } from '../webapps/serverApi';
import { CLONE_EXCLUDES, cloneWebapp } from './resource';
import { urlPairs } from './serialized';
import { type CloneSteps, cloneEvents } from './serverEvents';

interface Copy {
  source: DatabaseRow;
  name: string;
  row?: DatabaseRow;
}

const domainsOf = (app: WebappRow): string[] => JSON.parse(app.domains) as string[];

/** The clone's databases, then its account with all privileges on them; each undoes itself. */
function databaseSteps(
  ctx: HandlerContext,
  app: WebappRow,
  copies: Copy[],
  account: { name: string; password: string },
): Step[] {
  let userId: number | undefined;
  const steps: Step[] = copies.map((copy) => ({
    event: `Creating the database ${copy.name}`,
    code: 2,
    run: async () => void (copy.row = await makeDatabase(ctx, app, copy.name)),
    undo: async () => copy.row && (await removeDatabase(ctx, copy.row.id)),
  }));
  if (copies.length)
    steps.push({
      event: `Creating the database user ${account.name}`,
      code: 2,
      run: async () =>
        void (userId = (
          await makeDbUser(
            ctx,
            app,
            account.name,
            account.password,
            copies.map((c) => c.row!.id),
          )
        ).id),
      undo: async () => {
        if (userId !== undefined) await removeDbUser(ctx, userId);
      },
    });
  return steps;
}

/**
 * The files and the databases are copied at the same time (they do not depend on each
 * other; a clone takes the longer of the two, not their sum). Each op reports 0..10 of its
 * own work; the task's code is 3 + 6 × their mean, so it only grows.
 */
async function copyAll(
  ctx: HandlerContext,
  taskId: number,
  source: WebappRow,
  target: WebappRow,
  copies: Copy[],
  pairs: [string, string][],
): Promise<void> {
  const { tasks } = ctx.app.services;
  const done = [0, 0];
  let writing = Promise.resolve();
  const report = (branch: 0 | 1, of: number) => (p: OpProgress) => {
    done[branch] = Math.max(done[branch]!, p.code / of);
    const code = Math.round(3 + (6 * (done[0]! + done[1]!)) / 20);
    writing = writing.then(() => tasks.addEvent(taskId, p.event, code));
  };
  const files = ctx.app.agents.call(
    ctx.server.id,
    'clone.files',
    {
      from_user: source.sys_user,
      from_dir: appPath(source),
      to_user: target.sys_user,
      to_dir: appPath(target),
      exclude: [...CLONE_EXCLUDES],
    },
    { onProgress: report(0, 1) },
  );
  const databases = (async () => {
    for (const [i, copy] of copies.entries()) {
      const each = report(1, copies.length);
      await ctx.app.agents.call(
        ctx.server.id,
        'clone.database',
        { from: copy.source.name, to: copy.name, pairs },
        { onProgress: (p) => each({ ...p, code: i * 10 + p.code }) },
      );
    }
    done[1] = 10;
  })();
  try {
    // Both are awaited, so a failure of one never leaves the other running under the undo.
    const [filesDone, databasesDone] = await Promise.allSettled([files, databases]);
    for (const result of [filesDone, databasesDone])
      if (result.status === 'rejected') throw result.reason;
  } finally {
    await writing;
  }
}

const handlers = defineHandlers(cloneWebapp, {
  actions: {},
  /** `POST clone-webapp/webstacks/{appId}/...`: 202 with the task once the copy's app is made. */
  async create(ctx) {
    const body = ctx.body;
    const source = webappOf(ctx);
    if (source.status !== 'active')
      throw new HttpError(409, `${source.name} is ${source.status}: only an active app is cloned`);
    // What other features hang under the source (its cron jobs, a Node.js app's program) is
    // read now, and copied by their steps after the files; one that cannot be copied refuses.
    const more: CloneSteps[] = [];
    await emit(ctx.app, 'app.cloning', {
      ctx,
      source,
      name: body.name,
      addSteps: (steps) => void more.push(steps),
    });
    const sourceDbs = await new ManagedStore<DatabaseRow>(ctx.app.db, 'databases').all(
      ctx.server.id,
      { webapp_id: source.id, status: 'active' },
    );
    const copies: Copy[] = [];
    for (const [i, db] of sourceDbs.entries())
      copies.push({ source: db, name: await freeDatabaseName(ctx, `cl${i || ''}`, body.name) });
    const account = { name: copies[0]?.name ?? '', password: generatedPassword(32) };
    const pairs = urlPairs(domainsOf(source)[0]!, body.domains[0]!);
    const copying = copies.length ? 'the files and databases' : 'the files';
    return startAppTask(ctx, {
      kind: 'clone',
      type: source.webapp_type as WebappType,
      name: `${source.name} to ${body.name}`,
      fields: {
        name: body.name,
        domains: body.domains,
        sys_user: body.sys_user,
        php_version: source.php_version ?? '8.2',
        stack_type: source.stack_type,
      },
      webRoot: source.web_root,
      done: 'Clone completed',
      login: null,
      steps: ({ app, taskId }) => [
        ...databaseSteps(ctx, app, copies, account),
        {
          event: `Copying ${copying} of ${source.name}`,
          code: 3,
          run: () => copyAll(ctx, taskId, source, app, copies, pairs),
        },
        ...(source.webapp_type === 'wordpress' && copies.length
          ? [
              {
                event: 'Pointing the copy’s wp-config.php at its own database',
                code: 9,
                run: async () =>
                  void (await stepOp(ctx, taskId, 'wordpress.rewire', {
                    user: app.sys_user,
                    app: app.name,
                    web_root: app.web_root,
                    databases: copies.map((c) => ({ from: c.source.name, to: c.name })),
                    db_user: account.name,
                    db_password: account.password,
                    salts: Array.from({ length: 8 }, generatedSalt),
                  })),
              },
            ]
          : []),
        ...more.flatMap((steps) => steps({ copy: app, taskId })),
      ],
    });
  },
});

export const server = defineServerFeature({ handlers: [handlers], emits: cloneEvents });
