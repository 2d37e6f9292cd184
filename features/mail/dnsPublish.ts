/**
 * What "publish" writes into Stackdeck's own DNS when the mail domain's zone is there (issue 25):
 * the changes that make the zone hold our values, computed from the zone's records as the DNS
 * feature lists them (`DnsRecord`: id, type, relative name, fqdn, raw content, priority). Pure:
 * the route reads the records, shows or applies the plan through the DNS feature's services.
 *
 * Ours, replaced when they differ: the DKIM TXT at our selector, the A/AAAA of `mail.<d>` (our
 * MX's target), a DMARC record in one of the two forms we offer. Merged: the SPF record (one
 * `v=spf1`, theirs kept). Added beside theirs: our MX. Anything else is left as it is, and what
 * in it works against mail (another MX, their own DMARC, a CNAME at mail.<d>) is said in words.
 */
import { isSpf, mergeSpf } from './dnsSpf';
import { type MailDnsRecord, type MailDnsValues, dmarcValue } from './dnsValues';

/** A record of the zone, as the DNS feature's record list gives it. */
export interface ZoneRecord {
  id: number;
  type: string;
  fqdn: string;
  content: string;
  priority: number | null;
  ttl: number;
}

/** A record to write, in the DNS feature's input terms (name relative to the zone). */
export interface RecordWrite {
  type: 'TXT' | 'MX' | 'A' | 'AAAA';
  name: string;
  ttl: number;
  content: string;
  priority?: number;
}

export interface MailDnsPlan {
  zone: string;
  create: RecordWrite[];
  /** `from`: the record's content before, for the page. */
  update: { id: number; from: string; to: RecordWrite }[];
  /** Only SPF records merged into the one kept, and duplicates of our own records. */
  remove: { id: number; type: string; fqdn: string; content: string }[];
  /** Sentences: what was kept that works against mail, what was merged or replaced. */
  notes: string[];
  /** Nothing to write: the zone holds our values. */
  upToDate: boolean;
}

const undot = (h: string) => h.toLowerCase().replace(/\.$/, '');

/** The zone (`example.com`) that holds `fqdn`: `@` for the apex, else the part before it. */
export function relativeTo(fqdn: string, zone: string): string {
  if (fqdn === zone) return '@';
  if (!fqdn.endsWith(`.${zone}`)) throw new Error(`${fqdn} is not inside the zone ${zone}`);
  return fqdn.slice(0, -(zone.length + 1));
}

/**
 * The changes that publish `values` into `zone` (the domain itself or a zone above it, e.g.
 * zone example.com for mail domain shop.example.com), given all the zone's records.
 */
export function planMailDnsPublish(
  values: MailDnsValues,
  zone: string,
  records: readonly ZoneRecord[],
): MailDnsPlan {
  const z = undot(zone);
  const plan: MailDnsPlan = {
    zone: z,
    create: [],
    update: [],
    remove: [],
    notes: [],
    upToDate: false,
  };
  const write = (r: MailDnsRecord): RecordWrite => ({
    type: r.type,
    name: relativeTo(r.fqdn, z),
    ttl: r.ttl,
    // The DNS feature's host names go without the trailing dot.
    content: r.type === 'MX' ? undot(r.content) : r.content,
    ...(r.priority === undefined ? {} : { priority: r.priority }),
  });
  const at = (fqdn: string, type: string) =>
    records.filter((r) => undot(r.fqdn) === fqdn && r.type === type);

  /** One record of ours among `mine` (those we own there): kept, replaced or made. */
  const own = (r: MailDnsRecord, mine: ZoneRecord[], same: (x: ZoneRecord) => boolean) => {
    const keep = mine.find(same) ?? mine[0];
    if (!keep) plan.create.push(write(r));
    else if (!same(keep)) plan.update.push({ id: keep.id, from: keep.content, to: write(r) });
    for (const extra of mine.filter((x) => x !== keep))
      plan.remove.push({
        id: extra.id,
        type: extra.type,
        fqdn: extra.fqdn,
        content: extra.content,
      });
  };

  // DKIM: the TXT records at our selector that are DKIM keys are ours.
  const dkimAt = at(values.dkim.fqdn, 'TXT').filter((r) =>
    /^\s*v=DKIM1\b|(^|;)\s*p=/i.test(r.content),
  );
  own(values.dkim, dkimAt, (x) => x.content === values.dkim.content);

  // SPF: one record, theirs with ours merged in; the others found are folded into it.
  const spfAt = at(values.domain, 'TXT').filter((r) => isSpf(r.content));
  const merged = mergeSpf(
    spfAt.map((r) => r.content),
    { ipv4: values.ipv4, ipv6: values.ipv6 },
  );
  plan.notes.push(...merged.warnings);
  if (spfAt.length && merged.added.length)
    plan.notes.push(`The domain's SPF record keeps its terms; ${merged.added.join(' ')} added.`);
  own({ ...values.spf, content: merged.content }, spfAt, (x) => x.content === merged.content);

  // DMARC: a record in one of our two forms is ours; another is the user's policy, kept.
  const dmarcAt = at(values.dmarc.fqdn, 'TXT').filter((r) =>
    /^\s*v=DMARC1\s*(;|$)/i.test(r.content),
  );
  const ourForms = new Set([
    dmarcValue(values.domain, 'quarantine'),
    dmarcValue(values.domain, 'none'),
  ]);
  const theirs = dmarcAt.filter((r) => !ourForms.has(r.content));
  if (theirs.length)
    plan.notes.push(
      `The domain has its own DMARC record (${theirs[0]!.content}); it is kept as it is.`,
    );
  else own(values.dmarc, dmarcAt, (x) => x.content === values.dmarc.content);

  // MX: ours is added; any MX to mail.<d> is ours already. Others are the user's, kept.
  const [mx, a, aaaa] = [
    values.mx.find((r) => r.kind === 'mx')!,
    values.mx.find((r) => r.kind === 'mail-a')!,
    values.mx.find((r) => r.kind === 'mail-aaaa'),
  ];
  const target = undot(mx.content);
  const mxAt = at(values.domain, 'MX');
  if (!mxAt.some((r) => undot(r.content) === target)) plan.create.push(write(mx));
  const elsewhere = mxAt.filter((r) => undot(r.content) !== target).map((r) => undot(r.content));
  if (elsewhere.length)
    plan.notes.push(
      `MX records also point at ${elsewhere.join(', ')}; they are kept, and mail may go there. Remove them for all mail to come to this server.`,
    );

  // mail.<d>: the MX's target, ours. A CNAME there forbids other records: said, not removed.
  const cname = at(a.fqdn, 'CNAME')[0];
  if (cname) {
    plan.notes.push(
      `${a.fqdn} is a CNAME to ${undot(cname.content)}: remove it, then publish again for its address records.`,
    );
  } else {
    const aAt = at(a.fqdn, 'A');
    for (const r of aAt.filter((x) => x.content !== a.content).slice(0, 1))
      plan.notes.push(`${a.fqdn} pointed at ${r.content}; it now points at ${a.content}.`);
    own(a, aAt, (x) => x.content === a.content);
    const aaaaAt = at(a.fqdn, 'AAAA');
    if (aaaa) own(aaaa, aaaaAt, (x) => x.content === aaaa.content);
    else if (aaaaAt.length)
      plan.notes.push(
        `${a.fqdn} also has IPv6 addresses (${aaaaAt.map((r) => r.content).join(', ')}) that are not this server's: senders over IPv6 go there.`,
      );
  }

  plan.upToDate = !plan.create.length && !plan.update.length && !plan.remove.length;
  return plan;
}

/** Where a plan is written: the DNS feature's create, update and delete, bound by the route. */
export interface RecordWriter {
  create(record: RecordWrite): Promise<unknown>;
  update(id: number, record: RecordWrite): Promise<unknown>;
  remove(id: number): Promise<unknown>;
}

/**
 * Writes a plan: updates first (the merged SPF replaces the first SPF record), then the new
 * records, then the removals, so the zone never lacks an SPF record on the way.
 */
export async function applyMailDnsPlan(plan: MailDnsPlan, writer: RecordWriter): Promise<void> {
  for (const u of plan.update) await writer.update(u.id, u.to);
  for (const c of plan.create) await writer.create(c);
  for (const r of plan.remove) await writer.remove(r.id);
}
