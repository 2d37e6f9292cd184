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

/** Signs in through the login page, as a person would. */
export async function signIn(page: Page, email: string, password: string) {
  await page.goto('/login');
  await page.getByLabel(/email/i).fill(email);
  await page.getByLabel(/^password/i).fill(password);
  await page.getByRole('button', { name: /sign in/i }).click();
}

/** A new confirmed account, signed in through the login page and landed on its dashboard. */
export async function signInAsNewUser(page: Page, api: Api): Promise<Account> {
  const account = await api.account();
  await signIn(page, account.email, account.password);
  await expect(page).toHaveURL(/\/(dashboard|no-servers)$/);
  return account;
}

export const test = base.extend<{ api: Api }>({
  api: async ({ request }, use) => {
    await use(new Api(request));
  },
});
