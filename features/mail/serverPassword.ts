import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

/**
 * A mailbox password as it leaves the panel: Dovecot's `{ARGON2ID}` PHC string (OWASP's second
 * argon2id setting: 19 MiB, 2 passes, 1 lane; about 0.1 s of CPU), a random 16-byte salt.
 *
 * argon2id in WebAssembly holds the thread it runs on for that 0.1 s, and Node 20 has no
 * argon2 in its crypto: it runs in worker threads, so the panel's event loop keeps serving
 * agents and browsers while a thousand mailboxes are hashed. The workers' code is a string
 * (no extra file for the bundle to carry); hash-wasm is resolved by the panel and handed over.
 */
const SETTINGS = { parallelism: 1, iterations: 2, memorySize: 19456, hashLength: 32 } as const;

const WORKER_CODE = `
const { parentPort, workerData } = require('node:worker_threads');
const { argon2id } = require(workerData.hashWasm);
parentPort.on('message', ({ id, password, salt }) => {
  argon2id({ ...workerData.settings, password, salt: Buffer.from(salt, 'base64'), outputType: 'encoded' })
    .then((hash) => parentPort.postMessage({ id, hash }))
    .catch((error) => parentPort.postMessage({ id, error: String((error && error.message) || error) }));
});
`;

interface Pending {
  resolve: (hash: string) => void;
  reject: (error: Error) => void;
}

interface HashWorker {
  worker: Worker;
  pending: Map<number, Pending>;
}

/**
 * One worker per CPU, at most four (19 MiB each while hashing): a bulk of new mailboxes is
 * bound by hashing, and the event loop's thread is scheduled beside them by the system.
 */
const POOL_SIZE = Math.max(1, Math.min(4, availableParallelism()));
const pool: HashWorker[] = [];
let nextId = 1;

function spawn(): HashWorker {
  const worker = new Worker(WORKER_CODE, {
    eval: true,
    workerData: {
      hashWasm: createRequire(import.meta.url).resolve('hash-wasm'),
      settings: SETTINGS,
    },
  });
  const entry: HashWorker = { worker, pending: new Map() };
  worker.on('message', (msg: { id: number; hash?: string; error?: string }) => {
    const waiting = entry.pending.get(msg.id);
    entry.pending.delete(msg.id);
    if (entry.pending.size === 0) worker.unref();
    if (msg.hash) waiting?.resolve(msg.hash);
    else waiting?.reject(new Error(`argon2id: ${msg.error ?? 'no hash'}`));
  });
  // A worker that dies fails what it held; the next hash starts a new one.
  const fail = (error: Error) => {
    pool.splice(pool.indexOf(entry), 1);
    for (const waiting of entry.pending.values()) waiting.reject(error);
    entry.pending.clear();
  };
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`the hashing worker stopped (${code})`)));
  worker.unref();
  return entry;
}

/** The least busy worker, or a new one while the pool has room. */
function workerFor(): HashWorker {
  const idle = pool.find((w) => w.pending.size === 0);
  if (idle) return idle;
  if (pool.length < POOL_SIZE) {
    const made = spawn();
    pool.push(made);
    return made;
  }
  return pool.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
}

export function hashMailPassword(password: string): Promise<string> {
  const entry = workerFor();
  const id = nextId++;
  return new Promise<string>((resolve, reject) => {
    entry.pending.set(id, { resolve, reject });
    // Referenced while it works: a panel shutting down mid-hash waits for it.
    entry.worker.ref();
    entry.worker.postMessage({ id, password, salt: randomBytes(16).toString('base64') });
  });
}
