/**
 * Firewall (issue 12): through the API, on a sandbox server with the real agent and nft, the
 * time to apply a 10,000-entry deny list (one `nft -c` + `nft -f` transaction and the agent's
 * dead-man check, service reload) and to add one address to it (one runtime element).
 * Medians of several runs. Then a country of `ccRanges` ranges (made up, in 127.16.0.0/12) denied:
 * the list sent in parts and loaded in one transaction, once, and one address added after it.
 */
import { startBenchServer } from './benchServer';

export interface FirewallBenchResult {
  entries: number;
  /** API call -> the whole table replaced and confirmed. */
  fullApplyMs: number;
  /** API call -> one more address denied. */
  singleAddMs: number;
  ccRanges: number;
  /** API call -> the country's ranges staged, loaded and confirmed. */
  ccApplyMs: number;
  /** API call -> one more address denied while the country set holds them. */
  ccSingleAddMs: number;
}

const ip = (n: number) => [24, 16, 8, 0].map((s) => (n >>> s) & 255).join('.');

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function firewallBench(
  entries = 10_000,
  ccRanges = 200_000,
): Promise<FirewallBenchResult> {
  const bench = await startBenchServer(['ssh']);
  try {
    await bench.api('PATCH', bench.path('csf'), { enabled: true });
    const at = new Date().toISOString();
    const rows = Array.from({ length: entries }, (_, i) => ({
      server_id: bench.serverId,
      list: 'csf_deny',
      ip: `198.18.${Math.floor(i / 256)}.${i % 256}`,
      comment: '',
      created_at: at,
    }));
    for (let i = 0; i < rows.length; i += 500)
      await bench.app.db
        .insertInto('firewall_entries')
        .values(rows.slice(i, i + 500))
        .execute();
    const full: number[] = [];
    for (let run = 0; run < 3; run++) {
      const start = performance.now();
      await bench.api('GET', `${bench.path('csf/service')}?action=reload`);
      full.push(performance.now() - start);
    }
    const single: number[] = [];
    for (let run = 0; run < 5; run++) {
      const start = performance.now();
      await bench.api('POST', bench.path('csf/csf_deny'), { ip: `198.19.0.${run + 1}` });
      single.push(performance.now() - start);
    }
    // Two-address ranges with gaps from 127.16.0.0: nothing merges them, no traffic reaches them.
    const base = (127 << 24) | (16 << 16);
    const ranges = Array.from({ length: ccRanges }, (_, i) => ({
      country: 'XC',
      range: `${ip(base + i * 4)}-${ip(base + i * 4 + 1)}`,
    }));
    for (let i = 0; i < ranges.length; i += 500)
      await bench.app.db
        .insertInto('firewall_country_ranges')
        .values(ranges.slice(i, i + 500))
        .execute();
    await bench.app.db
      .insertInto('firewall_country_loads')
      .values({ country: 'XC', ranges: ccRanges, loaded_at: at })
      .execute();
    let start = performance.now();
    await bench.api('PATCH', bench.path('csf/cc'), { countries: ['XC'] });
    const ccApplyMs = performance.now() - start;
    start = performance.now();
    await bench.api('POST', bench.path('csf/csf_deny'), { ip: '198.19.1.1' });
    const ccSingleAddMs = performance.now() - start;
    return {
      entries,
      fullApplyMs: median(full),
      singleAddMs: median(single),
      ccRanges,
      ccApplyMs,
      ccSingleAddMs,
    };
  } finally {
    await bench.close();
  }
}
