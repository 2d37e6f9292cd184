import { randomBytes } from 'node:crypto';
import Fastify from 'fastify';

/**
 * A local stand-in for the one Hetzner Cloud call the panel makes, written to its public
 * documentation (docs.hetzner.cloud, "Locations" and "Errors"): `GET /v1/locations` answers the
 * locations for `Authorization: Bearer <token>`, and 401 with the `unauthorized` error object
 * otherwise.
 */
export interface FakeHetzner {
  /** Base URL (with /v1) to give the panel as HETZNER_API_URL. */
  url: string;
  token: string;
  calls: string[];
  close(): Promise<void>;
}

export async function startFakeHetzner(
  token = randomBytes(32).toString('hex'),
  port = 0,
): Promise<FakeHetzner> {
  const app = Fastify({ logger: false });
  const calls: string[] = [];
  app.get('/v1/locations', async (req, reply) => {
    calls.push('GET /v1/locations');
    if (req.headers.authorization !== `Bearer ${token}`)
      return reply
        .code(401)
        .send({ error: { code: 'unauthorized', message: 'unable to authenticate', details: {} } });
    return {
      locations: [{ id: 1, name: 'fsn1', city: 'Falkenstein', country: 'DE' }],
      meta: { pagination: { page: 1, per_page: 25, total_entries: 1 } },
    };
  });
  const url = await app.listen({ host: '127.0.0.1', port });
  return { url: `${url}/v1`, token, calls, close: () => app.close() };
}
