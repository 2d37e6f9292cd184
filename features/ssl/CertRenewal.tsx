import { Alert, TableCell, TableRow } from '@mui/material';
import { useGetOne } from 'ra-core';
import type { Server } from '../../resources/servers';
import type { SslCert } from './resource';
import { RENEW_BEFORE_DAYS, RENEW_HOURS, RENEW_MINUTE, nextRenewal } from './renewal';

const pad = (n: number) => String(n).padStart(2, '0');
const RUNS = RENEW_HOURS.map((h) => `${pad(h)}:${pad(RENEW_MINUTE)}`).join(' and ');

/** A time as the server's clock shows it, with its zone. */
function atServer(at: Date, timeZone: string | null): string {
  const zone = timeZone ?? 'UTC';
  try {
    return `${at.toLocaleString('en-GB', { timeZone: zone, dateStyle: 'medium', timeStyle: 'short' })} (${zone})`;
  } catch {
    return `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  }
}

/**
 * The certificate's "Renews" row: a Let's Encrypt one, when the server's certbot renews it
 * (features/ssl/renewal.ts: its cron's runs, in the server's time zone); an uploaded one, that
 * nothing renews it.
 */
export function RenewalRow({ cert, sid }: { cert: SslCert; sid: number }) {
  const server = useGetOne<Server>('servers', { id: sid });
  const timeZone = server.data?.timezone ?? null;
  let text = 'Not automatically: upload a new certificate before this one ends.';
  if (cert.type === 'letsencrypt' && cert.not_after) {
    const next = nextRenewal(cert.not_after, timeZone, Date.now());
    text = `Automatically, next on ${atServer(next, timeZone)}: the server checks at ${RUNS} its time and renews within ${RENEW_BEFORE_DAYS} days of the end.`;
  }
  return (
    <TableRow>
      <TableCell component="th">Renews</TableCell>
      <TableCell data-testid="cert-renews">{text}</TableCell>
    </TableRow>
  );
}

/** Said above an uploaded self-signed certificate: served, but no browser trusts it. */
export function SelfSignedNotice({ cert }: { cert: SslCert }) {
  if (!cert.self_signed) return null;
  return (
    <Alert severity="warning" sx={{ mb: 2 }} data-testid="cert-self-signed">
      Self-signed: no certificate authority vouches for it, so browsers warn visitors that the site
      is not secure. Fine for testing; for visitors, use a Let&apos;s Encrypt certificate.
    </Alert>
  );
}
