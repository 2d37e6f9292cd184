/**
 * The page that hands a sign-on token to Roundcube: a form posting `_sso` to the app, sent by a
 * script of the panel's own (no inline script). Not part of the JSON API: a static page that
 * knows nothing until the browser gives it the token in the fragment (never sent to a server,
 * so never in a log), and drops it from the address before posting. Its CSP lets its form post
 * to the one app named in `?to=` and nowhere else; no referrer goes with the post.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { APP_ORIGIN, LAUNCH_PATH } from './ssoResource';

const SCRIPT = `${LAUNCH_PATH}.js`;

const LAUNCH_JS = `(function () {
  var token = location.hash.slice(1);
  history.replaceState(null, '', location.pathname + location.search);
  var form = document.getElementById('launch');
  if (!/^[A-Za-z0-9_.-]{20,3000}$/.test(token) || !form) {
    document.getElementById('words').textContent =
      'This sign-in link was used already: open Roundcube again from the panel.';
    return;
  }
  form.elements.namedItem('_sso').value = token;
  form.submit();
})();
`;

const page = (to: string) => `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Opening Roundcube…</title></head>
<body>
<p id="words">Opening Roundcube…</p>
<form id="launch" method="post" action="${to}"><input type="hidden" name="_sso" value=""></form>
<script src="${SCRIPT}"></script>
</body>
</html>
`;

const bare = (reply: FastifyReply) =>
  reply
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .header('x-content-type-options', 'nosniff');

export default async function launchRoutes(app: FastifyInstance): Promise<void> {
  app.get(LAUNCH_PATH, async (req, reply) => {
    const to = (req.query as Record<string, unknown>).to;
    if (typeof to !== 'string' || !APP_ORIGIN.test(to))
      return bare(reply)
        .code(400)
        .type('text/plain; charset=utf-8')
        .send('`to` must be the address of a Roundcube app: http(s)://host/');
    return bare(reply)
      .header(
        'content-security-policy',
        `default-src 'none'; script-src 'self'; form-action ${to}; base-uri 'none'; frame-ancestors 'none'`,
      )
      .type('text/html; charset=utf-8')
      .send(page(to));
  });
  app.get(SCRIPT, async (_req, reply) =>
    bare(reply).type('text/javascript; charset=utf-8').send(LAUNCH_JS),
  );
}
