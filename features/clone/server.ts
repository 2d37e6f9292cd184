import type { z } from 'zod';
import { defineServerFeature } from '../../server/feature';
import { HttpError } from '../../server/http/errors';
import { defineHandlers } from '../../server/http/handlers';
import type { HandlerContext } from '../../server/http/handlers';
import { ManagedStore } from '../../server/managed/store';
import type { DatabaseRow } from '../databases/server';
import { makeDatabase, makeDbUser, removeDatabase, removeDbUser } from '../installers/serverApp';
import { appPath, freeDatabaseName, startAppTask, stepOp } from '../installers/serverRun';
import { generatedPassword, generatedSalt } from '../installers/serverSecrets';
import type { Step } from '../installers/serverSteps';
import type { WebappType } from '../webapps/names';
import type { WebappRow } from '../webapps/server';
import { CLONE_EXCLUDES, type cloneInput, cloneWebapp } from './resource';
import { urlPairs } from './serialized';

type Body = z.output<typeof cloneInput>;

const domainsOf = (app: WebappRow): string[] => JSON.parse(app.domains) as string[];

/**
 * The clone's databases and its account (one new database per source database), and then,
 * after the files, the copies: `[made, copied]`.
 */
function databaseSteps(
  ctx: HandlerContext,
  made: { app: WebappRow; taskId: number },
  copies: { source: DatabaseRow; name: string; row?: DatabaseRow }[],
  account: { name: string; password: string },
  pairs: [string, string][],
): [Step[], Step[]] {
  let userId: number | undefined;
  const steps: Step[] = copies.map((copy) => ({
    event: `Creating the database ${copy.name}`,
    code: 2,
    run: async () => void (copy.row = await makeDatabase(ctx, made.app, copy.name)),
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
            made.app,
            account.name,
            account.password,
            copies.map((c) => c.row!.id),
          )
        ).id),
      undo: async () => {
        if (userId !== undefined) await removeDbUser(ctx, userId);
      },
    });
  return [
    steps,
    copies.map((copy) => ({
      event: `Copying the database ${copy.source.name} to ${copy.name}`,
      code: 7,
      run: async () =>
        void (await stepOp(
          ctx,
          made.taskId,
          'clone.database',
          { from: copy.source.name, to: copy.name, pairs },
          [7, 8],
        )),
    })),
  ];
}

const handlers = defineHandlers(cloneWebapp, {
  actions: {},
  /** `POST clone-webapp/webstacks/{appId}/...`: 202 with the task once the copy's app is made. */
  async create(ctx) {
    const body = ctx.body as Body;
    const source = ctx.webapp as unknown as WebappRow;
    if (source.status !== 'active')
      throw new HttpError(409, `${source.name} is ${source.status}: only an active app is cloned`);
    if (source.webapp_type === 'nodejs')
      throw new HttpError(409, 'Node.js apps are not cloned yet: deploy the copy from its source');
    const sourceDbs = await new ManagedStore<DatabaseRow>(ctx.app.db, 'databases').all(
      ctx.server.id,
      { webapp_id: source.id, status: 'active' },
    );
    const copies: { source: DatabaseRow; name: string; row?: DatabaseRow }[] = [];
    for (const [i, db] of sourceDbs.entries())
      copies.push({ source: db, name: await freeDatabaseName(ctx, `cl${i || ''}`, body.name) });
    const account = { name: copies[0]?.name ?? '', password: generatedPassword(32) };
    const from = domainsOf(source)[0]!;
    const to = body.domains[0]!;
    const pairs = urlPairs(from, to);
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
      steps: (made) => {
        const [databases, copied] = databaseSteps(ctx, made, copies, account, pairs);
        return [
          ...databases,
          {
            event: `Copying the files of ${source.name}`,
            code: 3,
            run: async () =>
              void (await stepOp(
                ctx,
                made.taskId,
                'clone.files',
                {
                  from_user: source.sys_user,
                  from_dir: appPath(source),
                  to_user: made.app.sys_user,
                  to_dir: appPath(made.app),
                  exclude: [...CLONE_EXCLUDES],
                },
                [3, 6],
              )),
          },
          ...copied,
          ...(source.webapp_type === 'wordpress' && copies.length
            ? [
                {
                  event: 'Pointing the copy’s wp-config.php at its own database',
                  code: 9,
                  run: async () =>
                    void (await stepOp(ctx, made.taskId, 'wordpress.rewire', {
                      user: made.app.sys_user,
                      app: made.app.name,
                      web_root: made.app.web_root,
                      databases: copies.map((c) => ({ from: c.source.name, to: c.name })),
                      db_user: account.name,
                      db_password: account.password,
                      salts: Array.from({ length: 8 }, generatedSalt),
                    })),
                },
              ]
            : []),
        ];
      },
    });
  },
});

export const server = defineServerFeature({ handlers: [handlers] });
