/**
 * scripts/sandbox-server: the command line over the library in this dir. Each command is a few
 * lines; what it does lives in the modules it calls.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { guestEnv, nsenterArgs } from './exec';
import { layout } from './paths';
import { markedProcesses } from './processes';
import {
  type Sandbox,
  destroySandbox,
  installDeps,
  listSandboxes,
  openSandbox,
  startSandbox,
  stopAllSandboxes,
} from './index';

const USAGE = `usage: scripts/sandbox-server COMMAND

  start [--panel http://127.0.0.1:PORT] [--install-command CMD] [--quota] [--home-size MB]
        [--services ssh,nginx,...]
        boot a sandbox server; CMD runs inside with bash -c once it is up
  exec [--user NAME] ID -- COMMAND [ARG...]   run a command inside
  shell [--user NAME] ID                      a login shell inside
  list                                        the sandboxes on this machine
  stop ID | stop --all                        kill, unmount and remove
  deps                                        install the Debian packages sandboxes need

Needs root on Debian 12. Sandboxes live in BASE/ID, BASE being $STACKDECK_SANDBOX_BASE or
/var/tmp/stackdeck-sandbox; every command (list, stop --all included) sees only its BASE.`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'start':
      return start(rest);
    case 'exec':
      return execCommand(rest);
    case 'shell':
      return shell(rest);
    case 'list':
      return list();
    case 'stop':
      return stop(rest);
    case 'deps':
      return deps();
    case 'help':
    case '--help':
    case '-h':
      console.log(USAGE);
      return 0;
    default:
      console.error(USAGE);
      return 2;
  }
}

async function start(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      panel: { type: 'string' },
      'install-command': { type: 'string' },
      quota: { type: 'boolean', default: false },
      'home-size': { type: 'string' },
      services: { type: 'string' },
    },
  });
  const began = Date.now();
  const sandbox = await startSandbox({
    panel: values.panel,
    quota: values.quota,
    homeSizeMb: values['home-size'] === undefined ? undefined : positive(values['home-size']),
    services: values.services?.split(',').filter(Boolean),
  });
  console.log(
    `sandbox ${sandbox.id} (${sandbox.hostname}) up in ${((Date.now() - began) / 1000).toFixed(1)} s`,
  );
  for (const [name, outcome] of Object.entries(sandbox.services()))
    console.log(`  ${name}: ${outcome}`);
  let code = 0;
  const install = values['install-command'];
  if (install !== undefined) {
    console.log(`running inside: ${install}`);
    const res = await sandbox.exec(['bash', '-c', install], {
      timeoutMs: 30 * 60_000,
      onOutput: (chunk, stream) =>
        (stream === 'stdout' ? process.stdout : process.stderr).write(chunk),
    });
    code = res.code ?? 1;
    console.log(
      code === 0
        ? 'install command done'
        : `install command failed (${res.signal ?? `exit ${res.code}`})`,
    );
  }
  console.log(`shell: scripts/sandbox-server shell ${sandbox.id}`);
  console.log(`stop:  scripts/sandbox-server stop ${sandbox.id}`);
  return code;
}

/** exec and shell hand the terminal to nsenter: stdin, stdout and stderr are the caller's. */
function interactive(sandbox: Sandbox, argv: string[], user: string | undefined): Promise<number> {
  const initPid = sandbox.initPid;
  if (initPid === undefined)
    throw new Error(`sandbox ${sandbox.id} is not running (${sandbox.state().status})`);
  const term: Record<string, string> = process.env.TERM ? { TERM: process.env.TERM } : {};
  const child = spawn('nsenter', nsenterArgs(initPid, argv, user), {
    stdio: 'inherit',
    env: guestEnv(sandbox.id, term),
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
}

async function execCommand(args: string[]): Promise<number> {
  const split = args.indexOf('--');
  if (split < 0) throw new Error('exec ID -- COMMAND [ARG...]');
  const { values, positionals } = parseArgs({
    args: args.slice(0, split),
    options: { user: { type: 'string' } },
    allowPositionals: true,
  });
  const [id] = positionals;
  if (id === undefined) throw new Error('exec needs a sandbox id');
  return interactive(openSandbox(id), args.slice(split + 1), values.user);
}

async function shell(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: { user: { type: 'string' } },
    allowPositionals: true,
  });
  const [id] = positionals;
  if (id === undefined) throw new Error('shell needs a sandbox id');
  return interactive(openSandbox(id), ['bash', '-l'], values.user);
}

function list(): number {
  const rows = listSandboxes().map((s) => {
    const st = s.state();
    return [
      s.id,
      s.hostname,
      st.status,
      String(st.reboots),
      s.config.panelPort ? String(s.config.panelPort) : '-',
      st.createdAt,
    ];
  });
  const table = [['ID', 'HOSTNAME', 'STATUS', 'REBOOTS', 'PANEL', 'CREATED'], ...rows];
  const widths = table[0]!.map((_, i) => Math.max(...table.map((r) => r[i]!.length)));
  for (const row of table) console.log(row.map((cell, i) => cell.padEnd(widths[i]!)).join('  '));
  return 0;
}

async function stop(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: { all: { type: 'boolean', default: false } },
    allowPositionals: true,
  });
  if (values.all) {
    const ids = await stopAllSandboxes();
    console.log(ids.length ? `stopped ${ids.join(' ')}` : 'no sandboxes');
    return 0;
  }
  const [id] = positionals;
  if (id === undefined) throw new Error('stop ID, or stop --all');
  if (!existsSync(layout(id).dir) && markedProcesses(id).length === 0) {
    throw new Error(`no sandbox ${id} (scripts/sandbox-server list)`);
  }
  // By id, not through a handle: a leftover without state or config is stopped too.
  await destroySandbox(id);
  console.log(`stopped ${id}`);
  return 0;
}

async function deps(): Promise<number> {
  const began = Date.now();
  const installed = await installDeps((line) => console.log(line));
  const took = ((Date.now() - began) / 1000).toFixed(1);
  console.log(
    installed.length ? `installed ${installed.join(' ')} in ${took} s` : `all there (${took} s)`,
  );
  return 0;
}

function positive(text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`not a positive integer: ${text}`);
  return n;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(e instanceof Error ? e.message : String(e));
    process.exit(1);
  },
);
