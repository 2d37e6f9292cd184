import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a Slack- or Discord-compatible webhook got: both fields carry the same words. */
export interface WebhookPost {
  text: string;
  content: string;
}

/**
 * A webhook endpoint on 127.0.0.1 (the chat service a user points alerts at): it keeps every
 * JSON body it is sent, in order, and answers `status`.
 */
export async function startWebhookReceiver(status = 204) {
  const posts: WebhookPost[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      posts.push(JSON.parse(body) as WebhookPost);
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    posts,
    url: `http://127.0.0.1:${port}/hook`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
