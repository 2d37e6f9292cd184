import { runOp } from '../../server/agents/runOp';
import { HttpError, notFound } from '../../server/http/errors';
import { defineServerFeature } from '../../server/feature';
import { defineHandlers } from '../../server/http/handlers';
import type { WebappRow } from '../webapps/serverApi';
import { SSO_SCRIPT } from './config';
import { fetchStep, startInstall, stepOp } from '../installers/serverApi';
import { phpmyadminInstaller, phpmyadminLogin } from './resource';

/** The token is good this long (the link is opened at once); the account lives longer. */
const TOKEN_TTL = 60;
/** How long a signed-in phpMyAdmin session keeps its temporary account. */
const ACCOUNT_TTL = 3600;

const handlers = defineHandlers(phpmyadminLogin, {
  actions: {
    /**
     * `GET phpmyadmin-login/servers/{sid}/users/{uid}?dbuser=`: the database user, loaded
     * through the server by the request hook (another tenant's id reads as absent), then the
     * server's phpMyAdmin app; the agent makes the temporary account and the token. The activity line names the
     * database user only: the token is in the answer, once.
     */
    async login(ctx) {
      const dbUser = ctx.loaded.dbuser;
      // A user on its way out is as gone as one that never was.
      if (dbUser.status === 'deleting')
        throw notFound(`No database user #${dbUser.id} on this server`);
      if (dbUser.status !== 'active')
        throw new HttpError(409, `The database user ${dbUser.name} is not on the server yet`);
      const app = (await ctx.app.db
        .selectFrom('webapps')
        .selectAll()
        .where('server_id', '=', ctx.server.id)
        .where('webapp_type', '=', 'phpmyadmin')
        .where('status', '=', 'active')
        .orderBy('id')
        .executeTakeFirst()) as WebappRow | undefined;
      if (!app) throw new HttpError(409, 'Install phpMyAdmin on this server first');
      const domain = (JSON.parse(app.domains) as string[])[0];
      if (!domain) throw new HttpError(409, 'The phpMyAdmin app of this server has no domain');
      const made = await runOp(ctx, `Open phpMyAdmin as ${dbUser.name}`, 'pma.signon', {
        user: app.sys_user,
        app: app.name,
        web_root: app.web_root,
        db_user: dbUser.name,
        ttl: TOKEN_TTL,
        account_ttl: ACCOUNT_TTL,
      });
      return {
        url: `http://${domain}/${SSO_SCRIPT}?t=${made.token}`,
        expires_at: made.expires_at,
      };
    },
  },
});

const installer = defineHandlers(phpmyadminInstaller, {
  actions: {},
  /** `POST phpmyadmin/servers/{sid}/users/{uid}`: 202 with the task once the app is made. */
  async create(ctx) {
    const body = ctx.body;
    return startInstall(ctx, {
      type: 'phpmyadmin',
      name: `phpMyAdmin on ${body.domains[0]}`,
      fields: body,
      done: 'phpMyAdmin is installed',
      login: null,
      steps: ({ app, release, taskId }) => [
        fetchStep(ctx, { app, release, taskId }, 'phpMyAdmin'),
        {
          event: 'Setting phpMyAdmin up for this app',
          code: 7,
          run: async () =>
            void (await stepOp(ctx, taskId, 'pma.configure', {
              user: app.sys_user,
              app: app.name,
              web_root: app.web_root,
            })),
        },
      ],
    });
  },
});

export const server = defineServerFeature({ handlers: [handlers, installer] });
