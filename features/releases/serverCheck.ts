import { createHash } from 'node:crypto';
import { HttpError } from '../../server/http/errors';
import { APP_LABELS, type OfficialApp } from './urls';
import { CheckProblem, type Published, latestOf } from './official';

/**
 * "Check for new releases" of an official source, in the panel: the project's documents are
 * read over HTTPS (the tests point every official host at a local fake with
 * RELEASE_SOURCES_URL), the newest version and its published checksum found, and what is to
 * be pinned returned: always a SHA-256, the one the agent checks every download against.
 */

/** How long one request of a check may take. */
const TIMEOUT_MS = 20_000;
/** A project's page or JSON is small; more is refused rather than read. */
const MAX_TEXT = 2 * 1024 ** 2;
/** An archive the panel hashes itself (WordPress's: only SHA-1 and MD5 are published). */
const MAX_ARCHIVE = 512 * 1024 ** 2;

/** `https://host/path` as reached: through the tests' fake when RELEASE_SOURCES_URL is set. */
export function reachedAt(url: string, base: string | null): string {
  if (!base) return url;
  const u = new URL(url);
  return `${base.replace(/\/+$/, '')}/${u.host}${u.pathname}${u.search}`;
}

/** `host`: the official one the admin knows, even when the tests' fake answers for it. */
async function get(url: string, host: string): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(url, { redirect: 'follow', signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const why = cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : '');
    throw new CheckProblem(`${host} could not be reached (${why || 'no answer'})`);
  }
  if (!res.ok) {
    await res.body?.cancel();
    throw new CheckProblem(`${host} answered HTTP ${res.status} for ${new URL(url).pathname}`);
  }
  return res;
}

/** Reads a response's body, refusing more than `max` bytes; `each` sees every chunk. */
async function drain(res: Response, max: number, each: (chunk: Uint8Array) => void) {
  if (!res.body) return 0;
  let bytes = 0;
  // Node's web streams are async-iterable; the DOM typings of `Response` do not say so.
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.length;
    if (bytes > max) throw new CheckProblem(`${res.url} is larger than ${max} bytes`);
    each(chunk);
  }
  return bytes;
}

async function readText(url: string, host: string): Promise<string> {
  const res = await get(url, host);
  const parts: Uint8Array[] = [];
  await drain(res, MAX_TEXT, (c) => parts.push(c));
  return Buffer.concat(parts).toString('utf8');
}

/** What the check pins: the archive's address (as reached), SHA-256 and size. */
export interface Pin {
  version: string;
  url: string;
  format: Published['format'];
  sha256: string;
  size: number | null;
}

/**
 * Downloads the archive once, checks it against the SHA-1 its project published and answers
 * its SHA-256 and size: for WordPress, whose releases have no published SHA-256.
 */
async function sha256FromSha1(
  url: string,
  host: string,
  sha1: string,
): Promise<{ sha256: string; size: number }> {
  const res = await get(url, host);
  const one = createHash('sha1');
  const two = createHash('sha256');
  const size = await drain(res, MAX_ARCHIVE, (c) => {
    one.update(c);
    two.update(c);
  });
  const got = one.digest('hex');
  if (got !== sha1)
    throw new CheckProblem(
      `The download's SHA-1 is ${got}, not the published ${sha1}: nothing is pinned`,
    );
  return { sha256: two.digest('hex'), size };
}

/** The newest release of an official source, or a 409 in words (nothing changes then). */
export async function checkOfficial(app: OfficialApp, base: string | null): Promise<Pin> {
  try {
    const found = await latestOf(app, (url) => readText(reachedAt(url, base), new URL(url).host));
    const url = reachedAt(found.url, base);
    const pin = { version: found.version, url, format: found.format };
    if (found.checksum.algorithm === 'sha256')
      return { ...pin, sha256: found.checksum.hex, size: found.size };
    return { ...pin, ...(await sha256FromSha1(url, new URL(found.url).host, found.checksum.hex)) };
  } catch (error) {
    if (error instanceof CheckProblem)
      throw new HttpError(
        409,
        `${APP_LABELS[app]}: no new release could be checked. ${error.message}. The previous pin stays.`,
      );
    throw error;
  }
}
