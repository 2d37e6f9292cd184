import { type APIRequestContext, type Page, test as base, expect } from '@playwright/test';
import { E2E_ADMIN, MAILBOX_HTTP_PORT } from '../../playwright.config';

export { expect };
export { E2E_ADMIN };

export interface Account {
  id: number;
  uuid: string;
  email: string;
  password: string;
  user_name: string;
}

let seq = 0;
// The worker's pid too: two workers counting from 0 in the same millisecond would meet.
export const uniqueEmail = (prefix = 'user') =>
  `${prefix}-${Date.now().toString(36)}-${process.pid.toString(36)}-${++seq}@e2e.test`;

/** Helpers that use the panel's real API, as a second browser tab would. */
export class Api {
  private adminToken: string | null = null;
  constructor(private readonly request: APIRequestContext) {}

  async login(
    email: string,
    password: string,
    otp?: string,
  ): Promise<{ token: string; id: number }> {
    const res = await this.request.post(`/api/v1/users/login${otp ? `?otp=${otp}` : ''}`, {
      data: { email, password },
    });
    expect(res.status(), await res.text()).toBe(200);
    const body = (await res.json()) as { Token: string; User: { id: number } };
    return { token: body.Token, id: body.User.id };
  }

  async admin(): Promise<string> {
    this.adminToken ??= (await this.login(E2E_ADMIN.email, E2E_ADMIN.password)).token;
    return this.adminToken;
  }

  /**
   * The newest mail to an address, as its recipient got it: from the run's mailbox
   * (tests/e2e/mailbox.ts), since the outbox masks codes and links. The outbox row is written
   * before the API answers, the SMTP delivery right after: wait until every mail the outbox
   * lists for the address has arrived.
   */
  async lastMail(to: string): Promise<{ subject: string; text: string }> {
    const token = await this.admin();
    const res = await this.request.get(
      `/api/v1/admin/outbox?q=${encodeURIComponent(to)}&perPage=1`,
      { headers: { authorization: `Bearer ${token}` } },
    );
    expect(res.status()).toBe(200);
    const { total, data } = (await res.json()) as { total: number; data: { subject: string }[] };
    let mails: { subject: string; text: string }[] = [];
    await expect
      .poll(
        async () => {
          mails = await this.mailsTo(to);
          return mails.length;
        },
        { message: `mail to ${to} delivered` },
      )
      .toBeGreaterThanOrEqual(total);
    // Deliveries run in parallel and may arrive out of order: the newest is the one the outbox
    // wrote last (its subject).
    const newest = data[0]?.subject;
    const last = mails.filter((m) => !newest || m.subject === newest).at(-1) ?? mails.at(-1);
    if (!last) throw new Error(`no mail to ${to}`);
    return last;
  }

  /** Every mail the mailbox has received for an address so far, oldest first. */
  async mailsTo(to: string): Promise<{ subject: string; text: string }[]> {
    const box = await this.request.get(
      `http://127.0.0.1:${MAILBOX_HTTP_PORT}/mails?to=${encodeURIComponent(to)}`,
    );
    return (await box.json()) as { subject: string; text: string }[];
  }

  async codeMailedTo(to: string): Promise<string> {
    const mail = await this.lastMail(to);
    const code = /\b(\d{6})\b/.exec(mail.text)?.[1];
    if (!code) throw new Error(`no code in "${mail.subject}"`);
    return code;
  }

  /**
   * Registers and confirms an account through the API, as its user would: the answer to a
   * registration names no account, so the uuid comes from the mailed link, the id from sign-in.
   */
  async account(options: { password?: string; user_name?: string } = {}): Promise<Account> {
    const email = uniqueEmail();
    const password = options.password ?? 'a long e2e password';
    const user_name = options.user_name ?? 'E2E User';
    const res = await this.request.post('/api/v1/users', { data: { email, password, user_name } });
    expect(res.status(), await res.text()).toBe(201);
    const mail = await this.lastMail(email);
    const uuid = /confirm-account\?uuid=([0-9a-f-]{36})/.exec(mail.text)?.[1];
    const code = /\b(\d{6})\b/.exec(mail.text)?.[1];
    if (!uuid || !code) throw new Error(`no confirmation link or code in "${mail.subject}"`);
    const confirmed = await this.request.post('/api/v1/users/confirm', { data: { uuid, code } });
    expect(confirmed.status()).toBe(200);
    const { id } = await this.login(email, password);
    return { id, uuid, email, password, user_name };
  }
}

/** A session as the browser keeps it (dataProvider/session.ts): the token and who it is. */
interface BrowserSession {
  token: string;
  /** JSON of `{id, is_admin}`. */
  user: string;
  home: string;
}

/**
 * Sessions this worker signed in once, by account: signing in costs the panel a password hash
 * and the browser a page load, and most specs sign the same accounts in again and again (the
 * admin, a sandbox's owner). Checked before each reuse: a test may have signed one out.
 */
const workerSessions = new Map<string, BrowserSession>();

async function sessionFor(
  request: APIRequestContext,
  email: string,
  password: string,
): Promise<BrowserSession> {
  const key = `${email}\n${password}`;
  const known = workerSessions.get(key);
  if (known) {
    const { id } = JSON.parse(known.user) as { id: number };
    const still = await request.get(`/api/v1/users/${id}`, {
      headers: { authorization: `Bearer ${known.token}` },
    });
    if (still.ok()) return known;
  }
  const res = await request.post('/api/v1/users/login', { data: { email, password } });
  expect(res.status(), await res.text()).toBe(200);
  const body = (await res.json()) as { Token: string; User: { id: number; is_admin?: boolean } };
  const isAdmin = body.User.is_admin === true;
  const session = {
    token: body.Token,
    user: JSON.stringify({ id: body.User.id, is_admin: isAdmin }),
    // Where the sign-in page sends them (dataProvider/authProvider.ts).
    home: isAdmin ? '/admin/dashboard' : '/dashboard',
  };
  workerSessions.set(key, session);
  return session;
}

/**
 * Opens a page signed in as the account, without the sign-in page: the session comes from the
 * API (once per worker and account) and goes where the browser keeps it, then `path` (by
 * default where signing in lands) is the one page load. Tests of signing in itself use signIn().
 */
export async function openSignedIn(page: Page, email: string, password: string, path?: string) {
  const session = await sessionFor(page.request, email, password);
  // An address of the panel's origin without the app, for its storage: a few bytes of JSON.
  if (!page.url().startsWith('http://127.0.0.1')) await page.goto('/healthz');
  await page.evaluate(({ token, user }) => {
    // Whoever was signed in before, an admin acting as someone included, is gone.
    for (const key of ['stackdeck.admin.token', 'stackdeck.admin.user'])
      localStorage.removeItem(key);
    localStorage.setItem('stackdeck.token', token);
    localStorage.setItem('stackdeck.user', user);
  }, session);
  await page.goto(path ?? session.home);
  // The signed-in app's first load: on a loaded machine it has taken over the 15 s an
  // assertion waits (as long as typing into the sign-in page once waited for that page).
  if (path === undefined)
    await page.getByTestId('account-name').waitFor({ state: 'attached', timeout: 60_000 });
}

/** Signs in through the login page, as a person would. */
export async function signIn(page: Page, email: string, password: string) {
  await page.goto('/login');
  await page.getByLabel(/email/i).fill(email);
  await page.getByLabel(/^password/i).fill(password);
  await page.getByRole('button', { name: /sign in/i }).click();
}

/** A new confirmed account, signed in (openSignedIn) and landed on its dashboard. */
export async function signInAsNewUser(page: Page, api: Api): Promise<Account> {
  const account = await api.account();
  await openSignedIn(page, account.email, account.password);
  await expect(page).toHaveURL(/\/(dashboard|no-servers)$/);
  return account;
}

export const test = base.extend<{ api: Api }>({
  api: async ({ request }, use) => {
    await use(new Api(request));
  },
});
