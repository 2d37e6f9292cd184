import { randomBytes } from 'node:crypto';
import Fastify from 'fastify';

/**
 * A local stand-in for the one GitHub REST call the panel makes, written to GitHub's public
 * documentation (docs.github.com/rest/users/users#get-the-authenticated-user): `GET /user`
 * answers the account for `Authorization: Bearer <token>` and 401 "Bad credentials" otherwise.
 */
export interface FakeGithub {
  /** Base URL to give the panel as GITHUB_API_URL. */
  url: string;
  token: string;
  /** The tokens it accepts (`token` and any a test adds). */
  tokens: Set<string>;
  /** Calls seen, as `METHOD /path`. */
  calls: string[];
  close(): Promise<void>;
}

export async function startFakeGithub(
  token = `ghp_${randomBytes(18).toString('hex')}`,
  port = 0,
): Promise<FakeGithub> {
  const app = Fastify({ logger: false });
  const calls: string[] = [];
  const tokens = new Set([token]);
  app.get('/user', async (req, reply) => {
    calls.push('GET /user');
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!bearer || !tokens.has(bearer))
      return reply.code(401).send({
        message: 'Bad credentials',
        documentation_url: 'https://docs.github.com/rest',
        status: '401',
      });
    return { login: 'stackdeck-test', id: 1, type: 'User' };
  });
  const url = await app.listen({ host: '127.0.0.1', port });
  return { url, token, tokens, calls, close: () => app.close() };
}
