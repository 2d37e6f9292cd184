import { readOp, runOp } from '../../server/agents/runOp';
import { defineServerFeature } from '../../server/feature';
import { HttpError, fieldError } from '../../server/http/errors';
import { type HandlerContext, defineHandlers } from '../../server/http/handlers';
import { GENERAL_VALUES, type GeneralSetting } from './names';
import { type WpActionArgs, type WpActionResult, wpmanager } from './resource';

type Site = Pick<WpActionArgs, 'user' | 'app' | 'web_root' | 'php_version'>;
type ActionOf<A extends WpActionArgs['action']> = Extract<WpActionArgs, { action: A }>;
type Call = {
  [A in WpActionArgs['action']]: { action: A; input: ActionOf<A>['input'] };
}[WpActionArgs['action']];

/**
 * The request's app as the manager needs it: a WordPress app (the installer's type) with PHP,
 * not being removed. Any other app of the server is a 409: the manager has nothing to run.
 */
function siteOf(ctx: HandlerContext<unknown, unknown>): Site & { label: string } {
  const app = ctx.webapp;
  if (!app) throw new HttpError(404, 'Not found');
  if (app.webapp_type !== 'wordpress' || app.php_version === null)
    throw new HttpError(409, `${app.name} is not a WordPress app`);
  if (app.status === 'deleting') throw new HttpError(409, 'The app is being removed');
  return {
    user: app.sys_user,
    app: app.name,
    web_root: app.web_root,
    php_version: app.php_version,
    label: `web app ${app.name}`,
  };
}

const argsOf = (site: Site, call: Call) =>
  ({
    user: site.user,
    app: site.app,
    web_root: site.web_root,
    php_version: site.php_version,
    ...call,
  }) as WpActionArgs;

/** A read: no activity line. */
async function read(ctx: HandlerContext<unknown, unknown>, call: Call): Promise<WpActionResult> {
  return readOp(ctx, 'wp.manage', argsOf(siteOf(ctx), call));
}

/** A change, with its activity line (`what` never holds a password). */
async function write(
  ctx: HandlerContext<unknown, unknown>,
  what: string,
  call: Call,
): Promise<WpActionResult> {
  const site = siteOf(ctx);
  return runOp(ctx, `${what} (WordPress, ${site.label})`, 'wp.manage', argsOf(site, call));
}

const must = <T>(value: T | undefined): T => {
  if (value === undefined) throw new HttpError(502, "The server's answer lacks its part");
  return value;
};

const SETTING_WORDS: Record<GeneralSetting, string> = {
  title: 'Change the site title',
  url: "Change the site's address",
  admin_email: "Change the admin's mail address",
  public: 'Change search-engine visibility',
  debug: 'Turn debugging',
  maintenance: 'Turn maintenance mode',
};

function settingCall(type: GeneralSetting, raw: unknown): { call: Call; words: string } {
  const parsed = GENERAL_VALUES[type].safeParse(raw);
  if (!parsed.success) throw fieldError('value', parsed.error.issues[0]?.message ?? 'Invalid');
  const value = parsed.data;
  const onOff = type === 'debug' || type === 'maintenance' ? (value ? ' on' : ' off') : '';
  const shown = type === 'title' || type === 'url' ? ` to ${String(value)}` : '';
  return {
    call: { action: 'general.set', input: { setting: type, value } as never },
    words: `${SETTING_WORDS[type]}${onOff}${shown}`,
  };
}

const userId = (ctx: HandlerContext<unknown, unknown>) => Number(ctx.params.wpUserId);

const handlers = defineHandlers(wpmanager, {
  actions: {
    general: async (ctx) => must((await read(ctx, { action: 'general.read', input: {} })).general),
    setGeneral: async (ctx) => {
      const { call, words } = settingCall(ctx.query.type, ctx.body.value);
      return must((await write(ctx, words, call)).general);
    },
    users: async (ctx) => {
      const res = await read(ctx, { action: 'users.list', input: {} });
      return { users: must(res.users), roles: must(res.roles) };
    },
    createUser: async (ctx) => {
      const { login, email, role, password } = ctx.body;
      const res = await write(ctx, `Add the user ${login} as ${role}`, {
        action: 'users.create',
        input: { login, email, role, password },
      });
      return must(res.user);
    },
    changeUser: async (ctx) => {
      const id = userId(ctx);
      const { role, password } = ctx.body;
      const changes = [role ? `role to ${role}` : null, password ? 'password' : null];
      const res = await write(
        ctx,
        `Change user #${id}'s ${changes.filter(Boolean).join(' and ')}`,
        { action: 'users.change', input: { id, role, password } },
      );
      return must(res.user);
    },
    deleteUser: async (ctx) => {
      const id = userId(ctx);
      await write(ctx, `Delete user #${id}`, { action: 'users.delete', input: { id } });
      return { id, deleted: true as const };
    },
    plugins: async (ctx) => ({
      plugins: must((await read(ctx, { action: 'plugins.list', input: {} })).plugins),
    }),
    switchPlugin: async (ctx) => {
      const { plugin, action } = ctx.query;
      const verb = action === 'activate' ? 'Activate' : 'Deactivate';
      const res = await write(ctx, `${verb} the plugin ${plugin}`, {
        action: action === 'activate' ? 'plugins.activate' : 'plugins.deactivate',
        input: { plugin },
      });
      return { plugins: must(res.plugins) };
    },
    deletePlugin: async (ctx) => {
      const { plugin } = ctx.query;
      const res = await write(ctx, `Delete the plugin ${plugin}`, {
        action: 'plugins.delete',
        input: { plugin },
      });
      return { plugins: must(res.plugins) };
    },
    uploadPlugin: async (ctx) => {
      const { file_name, zip } = ctx.body;
      const res = await write(ctx, `Install or update a plugin from ${file_name}`, {
        action: 'plugins.upload',
        input: { zip },
      });
      return { plugins: must(res.plugins) };
    },
  },
});

export const server = defineServerFeature({ handlers: [handlers] });
