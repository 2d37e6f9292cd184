import Fastify from 'fastify';
import { type LoadResult, autocannon, panelWithUser } from './lib';

/**
 * Requests per second of an authenticated `GET users/{id}` (token check, cached caller, guard,
 * zod serialisation, security headers) against a bare Fastify route returning the same JSON,
 * both served by this process. The two alternate in `rounds` rounds of `seconds` each (the
 * machine's load drifts; a single pair of runs swung 0.49-0.67 from one run to the next): the
 * figure is the median of the rounds' ratios. Aim: at least 0.5.
 */
export async function apiThroughput(seconds = 4, rounds = 3) {
  const panel = await panelWithUser({ webDir: null });
  const url = `${panel.baseUrl}/api/v1/users/${panel.userId}`;
  const auth = { authorization: `Bearer ${panel.token}` };
  const sample = await panel.app.inject({
    method: 'GET',
    url: `/api/v1/users/${panel.userId}`,
    headers: auth,
  });
  const body = sample.body;

  const bare = Fastify();
  bare.get('/user', async (_req, reply) => reply.type('application/json').send(body));
  await bare.listen({ port: 0, host: '127.0.0.1' });
  const address = bare.server.address();
  const bareUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/user`;

  try {
    // Warm both paths (JIT, SQLite page cache, the caller cache) before measuring.
    await autocannon(url, auth, 2);
    await autocannon(bareUrl, {}, 2);
    const pairs: { authed: LoadResult; plain: LoadResult; ratio: number }[] = [];
    for (let round = 0; round < rounds; round++) {
      const authed = await autocannon(url, auth, seconds);
      const plain = await autocannon(bareUrl, {}, seconds);
      if (authed.errors || plain.errors)
        throw new Error(`errors during the run: ${authed.errors} / ${plain.errors}`);
      pairs.push({ authed, plain, ratio: authed.requestsPerSecond / plain.requestsPerSecond });
    }
    const ratios = pairs.map((p) => p.ratio).sort((a, b) => a - b);
    const median = pairs.find((p) => p.ratio === ratios[Math.floor(ratios.length / 2)])!;
    return { ...median, ratios: pairs.map((p) => p.ratio) };
  } finally {
    await bare.close();
    await panel.close();
  }
}
