/**
 * `npm run bench`: the figures the issues ask for, from one run. Not a test: it prints.
 * `npm run bench -- api bundle roundtrip agents webapps weblogs wordpress clone files gitdeploy firewall schedule backups mail adminservers adminusers renewals` runs only the named sections (all by default);
 * `AGENTS=1000` and `MEASURE_SECONDS=30` shrink the agent-scale run, `BACKUP_APP_MB=100
 * BACKUP_DB_MB=20` the backups one (`BACKUP_STORAGE=local`: a local repository instead of the
 * panel's own storage).
 */
import { adminServersBench } from './admin-servers';
import { adminUsersBench, adminUsersRequests } from './admin-users';
import { agentsScale } from './agents-scale';
import { backupsBench } from './backups';
import { cloneBench } from './clone';
import { filesBench } from './files';
import { benchPostgres, schedulePrecision } from './schedule';
import { firewallBench } from './firewall';
import { gitDeploy } from './gitdeploy';
import { apiThroughput } from './api-throughput';
import { loginBundle } from './login-bundle';
import { mailBench } from './mail';
import { opRoundTrip } from './op-roundtrip';
import { RENEWALS, renewalsBench } from './renewals';
import { webappCreate } from './webapp-create';
import { weblogs as weblogPages } from './weblogs';
import { wordpressInstall } from './wordpress-install';

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

async function api() {
  const result = await apiThroughput();
  console.log(
    'API: authenticated GET users/{id} vs a bare Fastify route (same process, autocannon -c 20)',
  );
  console.log(
    `  rounds:        ${result.ratios.map((r) => r.toFixed(2)).join(' ')}   (median below)`,
  );
  console.log(
    `  authenticated: ${result.authed.requestsPerSecond.toFixed(0)} req/s (p99 ${result.authed.p99Ms} ms)`,
  );
  console.log(
    `  bare route:    ${result.plain.requestsPerSecond.toFixed(0)} req/s (p99 ${result.plain.p99Ms} ms)`,
  );
  console.log(`  ratio:         ${result.ratio.toFixed(2)}   (median; aim: >= 0.5)\n`);
}

async function bundle() {
  const result = await loginBundle();
  console.log('UI: JavaScript loaded to render /login (Chromium, gzipped)');
  for (const file of result.files) console.log(`  ${file.name.padEnd(48)} ${kb(file.gzipBytes)}`);
  console.log(
    `  total: ${kb(result.gzipBytes)} gzipped (${kb(result.rawBytes)} raw)   (aim: < 200 KB)`,
  );
  console.log(
    `  Monaco / recharts in it: ${result.forbidden.length ? result.forbidden.join(', ') : 'no'}\n`,
  );
}

async function roundtrip() {
  const result = await opRoundTrip();
  console.log('Op round trip: GET ping (API -> agent -> system.uptime) vs ssh cat /proc/uptime');
  console.log(
    `  op:   ${result.opMs.toFixed(2)} ms a call (p99 ${result.opP99Ms.toFixed(2)} ms, ${result.calls} calls)`,
  );
  console.log(`  ssh:  ${result.sshMs.toFixed(1)} ms a call`);
  console.log(`  ssh / op: ${result.ratio.toFixed(1)}x   (aim: >= 10x)\n`);
  console.log('Managed op latency: POST a cron job until active (API -> agent -> crontab -> row)');
  console.log(
    `  p50 ${result.cron.p50Ms.toFixed(1)} ms, p99 ${result.cron.p99Ms.toFixed(1)} ms (${result.cron.calls} jobs, one after another)\n`,
  );
}

async function agents() {
  const count = Number(process.env.AGENTS ?? 5000);
  const seconds = Number(process.env.MEASURE_SECONDS ?? 60);
  const result = await agentsScale(count, seconds);
  console.log(
    `Agents: one panel process, ${result.agents} agents reporting every 5 s, ${result.browsers} browser subscribers`,
  );
  console.log(
    `  connected in ${result.connectSeconds.toFixed(1)} s; measured ${seconds} s, ${result.deliveries} deliveries`,
  );
  console.log(
    `  report-to-browser latency: p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms   (aim: p99 < 100 ms)`,
  );
  console.log(
    `  panel resident memory (max): ${result.maxRssMb.toFixed(0)} MB   (aim: < 1536 MB)\n`,
  );
}

async function webapps() {
  const result = await webappCreate();
  console.log('Web apps: create a PHP app, API call -> 200 through nginx (sandbox server)');
  console.log(
    `  p50 ${result.p50Ms.toFixed(0)} ms, p90 ${result.p90Ms.toFixed(0)} ms over ${result.apps} apps (the POST itself: p50 ${result.apiP50Ms.toFixed(0)} ms)\n`,
  );
}

async function weblogs() {
  const result = await weblogPages();
  console.log('Web-server logs: a page of 100 lines (the agent reader) vs tail -n 100');
  for (const row of result.rows)
    console.log(
      `  ${row.size}: newest ${row.newestMs.toFixed(2)} ms, 50 pages back ${row.page50Ms.toFixed(2)} ms, tail -n 100 ${row.tailMs.toFixed(2)} ms${row.estimated ? ' (line count estimated)' : ''}`,
    );
  console.log(`  1 GB / 1 MB, 50 pages back: ${result.ratio.toFixed(2)}   (aim: <= 2)\n`);
}

async function wordpress() {
  const result = await wordpressInstall();
  console.log('WordPress one-click install: API call -> the site answers with its title (sandbox)');
  console.log(
    `  p50 ${(result.p50Ms / 1000).toFixed(1)} s, slowest ${(result.maxMs / 1000).toFixed(1)} s over ${result.installs} installs   (aim: < 20 s)\n`,
  );
}

async function clone() {
  const result = await cloneBench();
  console.log(
    `Clone of an app: ${result.filesMb} MB of files and a ${result.dbMb} MB database, API call -> task completed (sandbox)`,
  );
  console.log(
    `  clone ${(result.cloneMs / 1000).toFixed(1)} s, cp -a + mariadb-dump | mariadb ${(result.baselineMs / 1000).toFixed(1)} s, ratio ${result.ratio.toFixed(2)}   (aim: <= 1.3)`,
  );
  for (const step of result.steps)
    console.log(`    ${step.at.toFixed(2).padStart(7)} s  ${step.event}`);
  console.log('');
}

async function files() {
  const r = await filesBench();
  console.log(
    'File manager: first page (100) of a 100,000-file folder, API -> agent as the app user -> back (sandbox)',
  );
  console.log(
    `  first page ${r.firstPageMs.toFixed(0)} ms, page 10 ${r.page10Ms.toFixed(0)} ms (median of 7)\n`,
  );
}

async function gitdeploy() {
  const r = await gitDeploy();
  console.log('Git deploy: failed requests during deploys under a steady curl load (sandbox)');
  console.log(
    `  ${r.failed} failed of ${r.requests} requests over ${r.deploys} deploys (aim: 0); deploy p50 ${r.p50Ms.toFixed(0)} ms, max ${r.maxMs.toFixed(0)} ms\n`,
  );
}

async function firewall() {
  const r = await firewallBench();
  console.log(
    'Firewall: a 10,000-entry deny list (API -> applied and confirmed) and one more address (sandbox)',
  );
  console.log(
    `  full apply ${r.fullApplyMs.toFixed(0)} ms, single add ${r.singleAddMs.toFixed(0)} ms`,
  );
  const ranges = r.ccRanges.toLocaleString('en-US');
  console.log(`  ${ranges} country ranges applied in ${r.ccApplyMs.toFixed(0)} ms`);
  console.log(
    `  ${ranges} country ranges denied, then one more address: ${r.ccSingleAddMs.toFixed(0)} ms   (aim: < 1000 ms)\n`,
  );
}

async function adminservers() {
  const pgDb = await benchPostgres();
  console.log('Admin: GET admin/servers over 100,000 servers of 1,000 owners (median of 7)');
  try {
    for (const r of await adminServersBench(pgDb?.url ?? null))
      console.log(
        `  ${r.engine.padEnd(8)} ${r.query.padEnd(26)} ${r.ms.toFixed(1).padStart(7)} ms   (${r.total.toLocaleString('en-US')} rows match)`,
      );
    if (!pgDb) console.log('  (PostgreSQL not reachable: measured on SQLite only)');
  } finally {
    await pgDb?.drop();
  }
  console.log('');
}

async function adminusers() {
  const pgDb = await benchPostgres();
  console.log(
    `Admin: GET admin/users over 100,000 users (p50 / p99 of ${adminUsersRequests} calls each)`,
  );
  try {
    for (const r of await adminUsersBench(pgDb?.url ?? null))
      console.log(
        `  ${r.engine.padEnd(8)} ${r.query.padEnd(32)} p50 ${r.p50Ms.toFixed(1).padStart(6)} ms  p99 ${r.p99Ms.toFixed(1).padStart(6)} ms   (${r.total.toLocaleString('en-US')} rows)`,
      );
    if (!pgDb) console.log('  (PostgreSQL not reachable: measured on SQLite only)');
  } finally {
    await pgDb?.drop();
  }
  console.log('  (aim: p99 < 100 ms for the first page and a search on SQLite)\n');
}

async function renewals() {
  const pgDb = await benchPostgres();
  console.log(
    `Billing: ${RENEWALS.toLocaleString('en-US')} subscriptions due, bank transfer; billing.sweep through the job engine until every renewal invoice exists`,
  );
  try {
    for (const r of await renewalsBench(pgDb?.url ?? null))
      console.log(
        `  ${r.engine.padEnd(8)} ${r.seconds.toFixed(1)} s, ${r.perSecond.toFixed(0)} renewals/s; ${r.invoices.toLocaleString('en-US')} invoices, numbers ${r.gapless ? 'gapless' : 'NOT gapless'}; a second sweep renewed ${r.secondSweep}`,
      );
    if (!pgDb) console.log('  (PostgreSQL not reachable: measured on SQLite only)');
  } finally {
    await pgDb?.drop();
  }
  console.log('');
}

async function schedule() {
  const count = Number(process.env.SCHEDULES ?? 1000);
  const seconds = Number(process.env.SCHEDULE_SECONDS ?? 20);
  console.log(
    `Schedule precision: ${count} schedules firing every second (real time), slot -> job start`,
  );
  const pgDb = await benchPostgres();
  for (const url of [null, pgDb?.url ?? null].slice(0, pgDb ? 2 : 1)) {
    const r = await schedulePrecision(url, count, seconds);
    console.log(
      `  ${r.engine.padEnd(8)} p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms, max ${r.maxMs} ms; ${r.runs} runs of ${r.expected} slots over ${r.seconds} s, ${r.repeated} slots run twice`,
    );
  }
  if (!pgDb) console.log('  (PostgreSQL not reachable: pg-boss not measured)');
  await pgDb?.drop();
  console.log('');
}

async function backups() {
  const r = await backupsBench();
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  console.log(
    `Backups: the agent's restic runner -> ${r.storage}; a ${r.appMb} MB app (${r.files} files), a ${r.dbMb} MB database`,
  );
  console.log(
    `  first backup ${s(r.first.ms)} (${mb(r.first.addedBytes)} added, ${mb(r.first.storedBytes)} stored)`,
  );
  console.log(
    `  second backup, ${r.second.changed} files (1 %) changed: ${s(r.second.ms)}, ${mb(r.second.addedBytes)} added (${mb(r.second.storedBytes)} stored)`,
  );
  console.log(`  second / first: ${r.incrementalRatio.toFixed(3)}   (aim: < 0.15)`);
  console.log(
    `  restore (restoreFiles, checked) ${s(r.restoreMs)}, tar -x of the same tree ${s(r.tarMs)}, ratio ${r.restoreRatio.toFixed(2)}   (aim: <= 1.5)`,
  );
  console.log(
    `    (restic restore alone ${s(r.plainRestoreMs)}, ratio ${(r.plainRestoreMs / r.tarMs).toFixed(2)}; restoreFiles adds restic's size of the snapshot and a count of the folder)`,
  );
  console.log(
    `  database (dump ${mb(r.dumpBytes)}): backupDatabase ${s(r.dbBackupMs)}, mariadb-dump > file ${s(r.dumpMs)}, ratio ${r.dbRatio.toFixed(2)}   (aim: <= 1.3)`,
  );
  console.log(
    `  after ${r.daily.runs} daily runs (2 % changed, 0.5 % added each): repository ${mb(r.daily.repoBytes)}, sum of its ${r.daily.snapshots} snapshots ${mb(r.daily.snapshotBytes)}, ratio ${(r.daily.repoBytes / r.daily.snapshotBytes).toFixed(3)}\n`,
  );
}

async function mail() {
  const r = await mailBench();
  console.log('Mail (sandbox server: Postfix, Dovecot, the real agent)');
  console.log(
    `  delivery, SMTP accepted -> visible over IMAP: p50 ${r.deliveryP50Ms.toFixed(1)} ms, p99 ${r.deliveryP99Ms.toFixed(1)} ms over ${r.deliveries} messages`,
  );
  console.log(
    `  webmail, first page of a ${r.inbox}-message inbox (panel op -> agent -> IMAP -> page data): cold ${r.firstPageColdMs.toFixed(0)} ms, warm p50 ${r.firstPageWarmMs.toFixed(1)} ms   (aim: < 300 ms)`,
  );
  console.log(
    `  ${r.mailboxes} mailboxes on one domain through the API (argon2id native, 4 requests at a time, converged in rounds): ${r.mailboxesSeconds.toFixed(1)} s   (aim: < 60 s); the panel's event-loop delay meanwhile p99 ${r.loopDelayP99Ms.toFixed(1)} ms, max ${r.loopDelayMaxMs.toFixed(1)} ms\n`,
  );
}

const sections = {
  api,
  bundle,
  roundtrip,
  agents,
  webapps,
  weblogs,
  wordpress,
  clone,
  files,
  gitdeploy,
  firewall,
  schedule,
  adminservers,
  adminusers,
  renewals,
  backups,
  mail,
} as const;

async function main() {
  const asked = process.argv.slice(2);
  const unknown = asked.filter((name) => !(name in sections));
  if (unknown.length)
    throw new Error(
      `unknown section ${unknown.join(', ')}; try ${Object.keys(sections).join(' ')}`,
    );
  console.log('Stackdeck benchmarks\n');
  for (const [name, run] of Object.entries(sections)) {
    if (asked.length === 0 || asked.includes(name)) await run();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
