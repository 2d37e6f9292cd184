import type { Sandbox } from '../../../scripts/sandbox/index';

/**
 * A Node.js app in a git repository inside a sandbox, for the Node.js installer's tests (the
 * machine has no internet): no dependencies; it says who runs it and what it was given.
 */
const SERVER_JS = `const http = require('node:http');
const os = require('node:os');
http
  .createServer((req, res) => {
    res.end('hello from node, ' + process.env.GREETING + ', as ' + os.userInfo().username + ' pid ' + process.pid + '\\n');
  })
  .listen(Number(process.env.PORT), '127.0.0.1');
`;

/**
 * The repository (server.js, and crash.js that dies at once), served over git's smart HTTP on
 * the sandbox's loopback (shallow clones need it); its clone address is returned.
 */
export async function serveNodeRepository(sb: Sandbox, port: number): Promise<string> {
  await sb.execOk([
    'bash',
    '-c',
    `set -e
mkdir -p /srv/src /srv/git /srv/www/cgi-bin
cd /srv/src && git init -q -b main
cat > server.js <<'JS'
${SERVER_JS}JS
echo "throw new Error('crashed on purpose');" > crash.js
git add . && git -c user.name=t -c user.email=t@example.com commit -qm app
git clone -q --bare /srv/src /srv/git/hello.git
ln -s /usr/lib/git-core/git-http-backend /srv/www/cgi-bin/git
# Python's CGI runs the backend as nobody when it runs as root: the repository is nobody's.
chown -R nobody:nogroup /srv/git
cd /srv/www && HOME=/tmp GIT_PROJECT_ROOT=/srv/git GIT_HTTP_EXPORT_ALL=1 \\
  setsid nohup python3 -m http.server --cgi --bind 127.0.0.1 ${port} >/tmp/git-http.log 2>&1 </dev/null &
# Something of the server's own on 3000: the allocator must pass it by.
setsid nohup python3 -m http.server --bind 127.0.0.1 -d /tmp 3000 >/dev/null 2>&1 </dev/null &
for i in $(seq 50); do ss -Hltn | grep -q ':${port} ' && ss -Hltn | grep -q ':3000 ' && exit 0; sleep 0.1; done
exit 1`,
  ]);
  return `http://127.0.0.1:${port}/cgi-bin/git/hello.git`;
}
