import { defineServerFeature } from '../../server/feature';
import { defineHandlers } from '../../server/http/handlers';
import { startAppTask, stepOp } from '../installers/serverApi';
import { specOf } from '../webapps/serverApi';
import { nodejsInstaller } from './resource';
import { megabytes, sendArchive } from './serverArchive';
import { portsMigration } from './serverPorts';
import { portStep } from './serverPortStep';
import { nodeCloneSource, nodeCloneSteps } from './serverClone';
import { programsMigration, rebuildNodeProgram, refuseJobName, saveProgram } from './serverProgram';

const handlers = defineHandlers(nodejsInstaller, {
  actions: {},
  /**
   * `POST nodejs/servers/{sid}/users/{uid}`: answers 202 with the task once the app is made;
   * the port, the code, the program and nginx's proxy follow as steps, each undone in reverse
   * when a later one fails.
   */
  async create(ctx) {
    const body = ctx.body;
    const { name, domains, sys_user } = body;
    await refuseJobName(ctx, name);
    let port: number | null = null;
    // No release of the catalogue: the code is the user's own, from git or an upload.
    return startAppTask(ctx, {
      kind: 'install',
      type: 'nodejs',
      name: `Node.js on ${domains[0]}`,
      fields: { name, domains, sys_user, php_version: '8.2', stack_type: 'nginx' },
      done: `The Node.js app answers at http://${domains[0]}`,
      login: null,
      steps: ({ app, taskId }) => [
        portStep(
          ctx,
          app,
          taskId,
          { event: 'Choosing a port', whose: "the app's", code: 2 },
          (claimed) => (port = claimed),
        ),
        body.archive
          ? {
              event: `Unpacking ${body.archive.file_name} (${megabytes(body.archive.data)})`,
              code: 3,
              run: () => sendArchive(ctx, taskId, app, body.archive!),
              // The code lives in the app's folder, which goes with the app.
            }
          : {
              event: body.branch
                ? `Cloning ${body.git_url} (${body.branch})`
                : `Cloning ${body.git_url}`,
              code: 3,
              run: async () =>
                void (await stepOp(ctx, taskId, 'node.fetch', {
                  user: app.sys_user,
                  app: app.name,
                  git_url: body.git_url!,
                  branch: body.branch ?? null,
                })),
              // The clone lives in the app's folder, which goes with the app.
            },
        {
          event: `Starting ${body.start} under supervisor`,
          code: 6,
          run: async () => {
            await stepOp(ctx, taskId, 'node.start', {
              user: app.sys_user,
              app: app.name,
              entry: body.start,
              port: port!,
              env: body.env,
            });
            // What a rebuild writes the program again from (serverProgram.ts).
            await saveProgram(ctx.app.db, ctx.app.services.box, app.id, {
              entry: body.start,
              env: body.env,
            });
          },
          undo: async () => void (await stepOp(ctx, taskId, 'node.remove', { app: app.name })),
        },
        {
          event: 'Pointing nginx at the app',
          code: 8,
          run: async () =>
            void (await stepOp(ctx, taskId, 'webapp.apply', await specOf(ctx.app.db, app))),
        },
      ],
    });
  },
});

export const server = defineServerFeature({
  migrations: { '0022_node_ports': portsMigration, '0025_node_upload': programsMigration },
  handlers: [handlers],
  on: {
    /** A rebuilt Node.js app gets its supervisor program written again too. */
    async 'app.rebuilding'({ ctx, app }) {
      if (app.webapp_type === 'nodejs') await rebuildNodeProgram(ctx, app);
    },
    /**
     * A Node.js copy runs the source's program (entry file, environment) on a port of its own;
     * a source whose program the panel does not know is refused before anything is made.
     */
    async 'app.cloning'({ ctx, source, name, addSteps }) {
      if (source.webapp_type !== 'nodejs') return;
      const program = await nodeCloneSource(ctx, source, name);
      addSteps(({ copy, taskId }) => nodeCloneSteps(ctx, program, copy, taskId));
    },
  },
});
