import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import Fastify, { type FastifyReply } from 'fastify';

/**
 * A local stand-in for the one S3 call the panel makes, written to AWS's public documentation
 * (ListBuckets; "Authenticating Requests: Using the Authorization Header (AWS Signature Version
 * 4)"; "Error Responses"): `GET /` with a header-signed request. The signature is verified here
 * from the documented algorithm, independently of the signing library the panel uses.
 */
export interface FakeS3 {
  /** The endpoint to give the panel. */
  url: string;
  /** Access key id -> secret access key. */
  keys: Map<string, string>;
  /** Key ids that are valid but may not list buckets (AccessDenied). */
  cannotList: Set<string>;
  close(): Promise<void>;
}

const sha256 = (data: string) => createHash('sha256').update(data).digest('hex');
const hmac = (key: Buffer | string, data: string) =>
  createHmac('sha256', key).update(data).digest();

function s3Error(reply: FastifyReply, status: number, code: string, message: string) {
  return reply
    .code(status)
    .type('application/xml')
    .send(
      `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message><RequestId>fake</RequestId></Error>`,
    );
}

export async function startFakeS3(): Promise<FakeS3> {
  const app = Fastify({ logger: false });
  const keys = new Map<string, string>();
  const cannotList = new Set<string>();

  app.get('/', async (req, reply) => {
    const auth =
      /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/.exec(
        req.headers.authorization ?? '',
      );
    if (!auth) return s3Error(reply, 403, 'AccessDenied', 'Access Denied');
    const [, keyId = '', day = '', region = '', signedHeaders = '', signature = ''] = auth;
    const secret = keys.get(keyId);
    if (secret === undefined)
      return s3Error(
        reply,
        403,
        'InvalidAccessKeyId',
        'The AWS Access Key Id you provided does not exist in our records.',
      );
    const amzDate = String(req.headers['x-amz-date'] ?? '');
    const payloadHash = String(req.headers['x-amz-content-sha256'] ?? '');
    const [path = '/', query = ''] = req.url.split('?');
    const canonicalQuery = query.split('&').filter(Boolean).sort().join('&');
    const canonicalHeaders = signedHeaders
      .split(';')
      .map((name) => `${name}:${String(req.headers[name] ?? '').trim()}\n`)
      .join('');
    const canonicalRequest = [
      req.method,
      path,
      canonicalQuery,
      canonicalHeaders,
      signedHeaders,
      payloadHash,
    ].join('\n');
    const scope = `${day}/${region}/s3/aws4_request`;
    const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonicalRequest)].join('\n');
    const signingKey = ['s3', 'aws4_request'].reduce(
      (key, part) => hmac(key, part),
      hmac(hmac(`AWS4${secret}`, day), region),
    );
    const expected = hmac(signingKey, stringToSign);
    if (!amzDate.startsWith(day) || !timingSafeEqual(expected, Buffer.from(signature, 'hex')))
      return s3Error(
        reply,
        403,
        'SignatureDoesNotMatch',
        'The request signature we calculated does not match the signature you provided.',
      );
    if (cannotList.has(keyId)) return s3Error(reply, 403, 'AccessDenied', 'Access Denied');
    return reply
      .type('application/xml')
      .send(
        '<?xml version="1.0" encoding="UTF-8"?>\n<ListAllMyBucketsResult><Owner><ID>fake</ID></Owner><Buckets><Bucket><Name>backups</Name><CreationDate>2026-01-01T00:00:00.000Z</CreationDate></Bucket></Buckets></ListAllMyBucketsResult>',
      );
  });

  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  return { url, keys, cannotList, close: () => app.close() };
}
