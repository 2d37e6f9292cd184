/**
 * The webmail's image proxy: a remote image of a message fetched by the panel when its reader
 * asks for it, so the frame showing the message still loads nothing from elsewhere (the panel's
 * CSP) and the sender learns the panel's address, not the reader's. Every connection goes
 * through the panel's outbound policy (no private, local or metadata address, checked at
 * connect time and on each redirect); at most 5 MB, 10 seconds, raster images only (an SVG can
 * carry scripts).
 */
import { type Response, fetch } from 'undici';
import { HttpError } from '../../server/http/errors';
import type { OutboundPolicy } from '../../server/http/outbound';
import { blockedBy } from '../../server/http/providerFetch';

const MAX_BYTES = 5 * 1024 * 1024;
const TIMEOUT_MS = 10_000;
const MAX_REDIRECTS = 3;
const RASTER = /^image\/(png|jpeg|gif|webp|avif|bmp|x-icon|vnd\.microsoft\.icon)$/;

export interface RemoteImage {
  type: string;
  bytes: Buffer;
}

const failed = (why: string) => new HttpError(502, `The image could not be loaded: ${why}`);

async function limitedBody(res: Response): Promise<Buffer> {
  const declared = Number(res.headers.get('content-length') ?? 0);
  if (declared > MAX_BYTES) throw failed('it is larger than 5 MB');
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = res.body?.getReader();
  if (!reader) return Buffer.alloc(0);
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BYTES) {
      await reader.cancel();
      throw failed('it is larger than 5 MB');
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

export async function fetchRemoteImage(
  outbound: OutboundPolicy,
  url: string,
): Promise<RemoteImage> {
  const signal = AbortSignal.timeout(TIMEOUT_MS);
  let at = url;
  try {
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      if (!/^https?:$/.test(new URL(at).protocol)) throw failed('only http and https are fetched');
      outbound.checkUrl(at);
      const res = await fetch(at, {
        dispatcher: outbound.dispatcher,
        redirect: 'manual',
        signal,
        headers: { accept: 'image/*' },
      });
      const next = res.headers.get('location');
      if (res.status >= 300 && res.status < 400 && next) {
        await res.body?.cancel();
        at = new URL(next, at).toString();
        continue;
      }
      if (!res.ok) {
        await res.body?.cancel();
        throw failed(`its server answered ${res.status}`);
      }
      const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
      if (!RASTER.test(type)) {
        await res.body?.cancel();
        throw failed(`it is not an image (${type || 'no type'})`);
      }
      return { type, bytes: await limitedBody(res) };
    }
    throw failed('too many redirects');
  } catch (error) {
    if (error instanceof HttpError) throw error;
    const blocked = blockedBy(error);
    if (blocked) throw new HttpError(400, `The image could not be loaded: ${blocked.message}`);
    if (signal.aborted) throw failed('its server did not answer in 10 seconds');
    throw failed('its server could not be reached');
  }
}
