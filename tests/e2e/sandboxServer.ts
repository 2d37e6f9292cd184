import {
  type APIRequestContext,
  request as playwrightRequest,
  test as base,
} from '@playwright/test';
import { type Sandbox, startSandbox } from '../../scripts/sandbox/index';
import { type Account, Api, expect } from './fixtures';

/**
 * One real server for a spec file: a new user, a server record made through the API
 * (`?action=create`), its install command (`?action=script&sid=`) run as root inside a fresh
 * sandbox server, and the agent connected. Needs root and the sandbox packages; set
 * STACKDECK_SANDBOX_BASE to keep this run's sandboxes apart. Stopped after the file.
 */
export const PANEL = `http://127.0.0.1:${process.env.E2E_PORT ?? 4173}`;

export interface SandboxServer {
  account: Account;
  token: string;
  serverId: number;
  serverName: string;
  sandbox: Sandbox;
  /** The panel's API as the owner. */
  get<T>(path: string): Promise<T>;
}

interface Handle {
  /** Resolves once the agent is connected. */
  ready(): Promise<SandboxServer>;
}

async function apiAs(context: APIRequestContext, token: string) {
  return async <T>(method: 'GET' | 'POST', path: string, data?: unknown): Promise<T> => {
    const res = await context.fetch(`/api/v1/${path}`, {
      method,
      headers: { authorization: `Bearer ${token}` },
      ...(data === undefined ? {} : { data }),
    });
    expect(res.status(), `${method} ${path}: ${await res.text()}`).toBeLessThan(300);
    return (await res.json()) as T;
  };
}

async function setUp(
  context: APIRequestContext,
  booting: Promise<Sandbox>,
  serverName: string,
  rootPassword: boolean,
): Promise<SandboxServer> {
  const api = new Api(context);
  const account = await api.account();
  const { token, id } = await api.login(account.email, account.password);
  const call = await apiAs(context, token);
  const server = await call<{ id: number }>('POST', `servers/users/${id}?action=create`, {
    name: serverName,
    provider: 'Sandbox',
    ...(rootPassword ? { root_password: true } : {}),
  });
  const { command } = await call<{ command: string }>(
    'POST',
    `servers/users/${id}?action=script&sid=${server.id}`,
  );
  const sandbox = await booting;
  const installed = await sandbox.exec(['bash', '-c', command], { timeoutMs: 90_000 });
  expect(installed.code, installed.stderr).toBe(0);
  const get = <T>(path: string) => call<T>('GET', path);
  await expect
    .poll(
      async () => (await get<{ connected: boolean }>(`servers/${server.id}/users/${id}`)).connected,
      { timeout: 30_000 },
    )
    .toBe(true);
  return { account, token, serverId: server.id, serverName, sandbox, get };
}

/**
 * Registers the file's beforeAll/afterAll: the sandbox boots while the account and the server
 * record are made. `services` are the sandbox's init.d services (ssh always); `rootPassword`: the
 * server was connected asking for a root password (the Connect page's box).
 */
export function useSandboxServer(
  options: { serverName?: string; services?: string[]; rootPassword?: boolean } = {},
): Handle {
  let setup: Promise<SandboxServer> | null = null;
  let booting: Promise<Sandbox> | null = null;
  let context: APIRequestContext | null = null;

  base.beforeAll(async () => {
    booting = startSandbox({
      panel: PANEL,
      services: options.services ?? ['ssh', 'cron'],
      bootTimeoutMs: 90_000,
    });
    booting.catch(() => undefined);
    context = await playwrightRequest.newContext({ baseURL: PANEL });
    setup = setUp(context, booting, options.serverName ?? 'e2e-server', !!options.rootPassword);
    setup.catch(() => undefined);
  });

  base.afterAll(async () => {
    const sandbox = await booting?.catch(() => null);
    await sandbox?.stop();
    await context?.dispose();
  });

  return {
    ready() {
      if (!setup) throw new Error('useSandboxServer: beforeAll has not run');
      return setup;
    },
  };
}
