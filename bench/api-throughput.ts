import Fastify from 'fastify';
import { autocannon, panelWithUser } from './lib';

/**
 * Requests per second of an authenticated `GET users/{id}` (token check, session and user
 * lookup, guard, zod serialisation) against a bare Fastify route returning the same JSON, both
 * served by this process. Aim: a ratio of at least 0.5.
 */
export async function apiThroughput(seconds = 8) {
  const panel = await panelWithUser({ webDir: null });
  const url = `${panel.baseUrl}/api/v1/users/${panel.userId}`;
  const sample = await panel.app.inject({
    method: 'GET',
    url: `/api/v1/users/${panel.userId}`,
    headers: { authorization: `Bearer ${panel.token}` },
  });
  const body = sample.body;

  const bare = Fastify();
  bare.get('/user', async (_req, reply) => reply.type('application/json').send(body));
  await bare.listen({ port: 0, host: '127.0.0.1' });
  const address = bare.server.address();
  const bareUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/user`;

  try {
    // Warm both paths (JIT, SQLite page cache) before measuring.
    await autocannon(url, { authorization: `Bearer ${panel.token}` }, 2);
    await autocannon(bareUrl, {}, 2);
    const authed = await autocannon(url, { authorization: `Bearer ${panel.token}` }, seconds);
    const plain = await autocannon(bareUrl, {}, seconds);
    if (authed.errors || plain.errors)
      throw new Error(`errors during the run: ${authed.errors} / ${plain.errors}`);
    return { authed, plain, ratio: authed.requestsPerSecond / plain.requestsPerSecond };
  } finally {
    await bare.close();
    await panel.close();
  }
}
