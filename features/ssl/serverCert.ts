import { X509Certificate, createPrivateKey } from 'node:crypto';
import { fieldError } from '../../server/http/errors';

/** A certificate and key the panel checked: normalized PEM, and what the certificate says. */
export interface CheckedCert {
  /** The leaf, then its chain: what nginx serves. */
  fullchain: string;
  /** PKCS#8 PEM. A secret: sealed in the row, never answered or logged. */
  privkey: string;
  names: string[];
  issuer: string;
  not_before: string;
  not_after: string;
  /** Issued by itself (issuer = subject, signed by its own key): browsers warn about it. */
  self_signed: boolean;
}

/** Issuer = subject and signed by its own key, as `openssl req -x509` makes it. */
export const isSelfSigned = (cert: X509Certificate) =>
  cert.checkIssued(cert) && cert.verify(cert.publicKey);

/** Whether the first certificate of a stored full chain is self-signed (false if unreadable). */
export function selfSignedPem(fullchain: string | null): boolean {
  const first = fullchain ? [...fullchain.matchAll(BLOCK)][0] : undefined;
  if (!first) return false;
  try {
    return isSelfSigned(new X509Certificate(first[0]));
  } catch {
    return false;
  }
}

const BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----[\s\S]*?-----END \1-----/g;

/** The PEM blocks of a text, in order: only `CERTIFICATE` blocks are taken. */
function certBlocks(field: string, text: string): X509Certificate[] {
  const blocks = [...text.matchAll(BLOCK)];
  if (!blocks.length)
    throw fieldError(field, 'No PEM block: paste the text between -----BEGIN and -----END lines');
  return blocks.map((m, i) => {
    if (m[1] !== 'CERTIFICATE')
      throw fieldError(field, `Block ${i + 1} is a ${m[1]}, not a CERTIFICATE`);
    try {
      return new X509Certificate(m[0]);
    } catch {
      throw fieldError(field, `Block ${i + 1} is not a readable certificate`);
    }
  });
}

export function namesOf(cert: X509Certificate): string[] {
  const names = (cert.subjectAltName ?? '')
    .split(/,\s*/)
    .filter((n) => n.startsWith('DNS:'))
    .map((n) => n.slice(4).toLowerCase());
  if (names.length) return names;
  const cn = /(?:^|\n)CN=([^\n]+)/.exec(cert.subject)?.[1];
  return cn ? [cn.toLowerCase()] : [];
}

const oneLine = (dn: string) => dn.split('\n').join(', ');

/**
 * Checks an uploaded certificate for an app with node:crypto, every refusal at its field: the
 * certificate parses and is valid now, the key parses (unencrypted) and matches it, the names
 * cover the app's primary domain, and each chain certificate parses and issued the one before.
 * A self-signed certificate is taken, and said (`self_signed`).
 */
export function checkCustomCert(
  input: { certificate: string; private_key: string; chain?: string | null | undefined },
  domains: readonly string[],
  now = new Date(),
): CheckedCert {
  const [leaf, ...inline] = certBlocks('certificate', input.certificate);
  const chain = [...inline, ...(input.chain ? certBlocks('chain', input.chain) : [])];
  const chainField = input.chain ? 'chain' : 'certificate';
  const selfSigned = chain.length === 0 && isSelfSigned(leaf!);
  // A CA's own certificate is refused; a self-signed one for the app's domain (`openssl req
  // -x509` marks it CA:TRUE too) is a site's, taken with a warning.
  if (
    leaf!.ca &&
    selfSigned &&
    domains[0] !== undefined &&
    leaf!.checkHost(domains[0]) === undefined
  )
    throw fieldError('certificate', 'This is a CA certificate, not a certificate for a site');

  const from = new Date(leaf!.validFrom);
  const to = new Date(leaf!.validTo);
  if (to <= now)
    throw fieldError('certificate', `The certificate expired on ${to.toISOString().slice(0, 10)}`);
  if (from > now)
    throw fieldError(
      'certificate',
      `The certificate is not valid before ${from.toISOString().slice(0, 10)}`,
    );

  let key;
  try {
    key = createPrivateKey(input.private_key);
  } catch (error) {
    const encrypted =
      /passphrase|encrypted/i.test(String(error)) || /ENCRYPTED/.test(input.private_key);
    throw fieldError(
      'private_key',
      encrypted
        ? 'The key is encrypted: give it without a passphrase (openssl pkey -in key.pem)'
        : 'Not a readable private key (PEM)',
    );
  }
  if (!leaf!.checkPrivateKey(key))
    throw fieldError('private_key', 'This key does not belong to the certificate');

  const uncovered = domains.filter((d) => leaf!.checkHost(d) === undefined);
  if (domains[0] !== undefined && uncovered.includes(domains[0]))
    throw fieldError(
      'certificate',
      `The certificate does not name ${uncovered.join(', ')} (it names ${namesOf(leaf!).join(', ') || 'nothing'})`,
    );

  let previous = leaf!;
  for (const [i, next] of chain.entries()) {
    if (!previous.checkIssued(next) || !previous.verify(next.publicKey))
      throw fieldError(
        chainField,
        `Chain certificate ${i + 1} (${oneLine(next.subject)}) did not issue ${oneLine(previous.subject)}`,
      );
    if (new Date(next.validTo) <= now)
      throw fieldError(chainField, `Chain certificate ${i + 1} (${oneLine(next.subject)}) expired`);
    previous = next;
  }

  return {
    fullchain: [leaf!, ...chain].map((c) => c.toString()).join(''),
    privkey: key.export({ type: 'pkcs8', format: 'pem' }).toString(),
    names: namesOf(leaf!),
    issuer: oneLine(leaf!.issuer),
    not_before: from.toISOString(),
    not_after: to.toISOString(),
    self_signed: selfSigned,
  };
}
