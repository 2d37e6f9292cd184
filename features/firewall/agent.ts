import fs from 'node:fs/promises';
import { writeFileAtomic } from '../../agent/lib/files';
import { OpError } from '../../agent/lib/opError';
import { defineAgentFeature } from '../../agent/ops/types';
import {
  changeElement,
  checkFile,
  counts,
  denyList,
  loadFile,
  readTable,
  tablePresent,
} from './agentNft';
import { currentGuard, panelAnswers } from './agentGuard';
import { persistAtBoot } from './agentBoot';
import { countriesFile, haveList, keepOnly, stagePart } from './agentCc';
import { elementOf, includeOf, renderRemoval, renderRuleset } from './render';
import { ops } from './resource';

/** The last ruleset that held (loaded at boot through /etc/nftables.conf). */
export const DIR = '/etc/stackdeck/firewall';
const FILE = `${DIR}/stackdeck.nft`;
const NEXT = `${DIR}/stackdeck.nft.next`;
/** Country range lists: sent in parts, kept as nft files of their own (agentCc.ts). */
const CC = `${DIR}/cc`;
/**
 * The server admin's own rules (root's file, optional): put at the very top of the input
 * chain, before even the guard, as written. A rule there that cuts the agent off is exactly
 * what the dead-man check rolls back.
 */
const LOCAL = `${DIR}/local-input.nft`;

async function localRules(): Promise<string> {
  const stat = await fs.lstat(LOCAL).catch(() => null);
  // Root's regular file only: never a link, never one another user could write.
  if (!stat?.isFile() || stat.uid !== 0 || (stat.mode & 0o022) !== 0) return '';
  return fs.readFile(LOCAL, 'utf8');
}

/** The kept file loads exactly that countries file (none: no include at all). */
async function keptFileUses(countries: string | null): Promise<boolean> {
  const kept = await fs.readFile(FILE, 'utf8').catch(() => null);
  if (kept === null) return false;
  const included = kept.split('\n').filter((l) => l.startsWith('include '));
  return countries
    ? included.length === 1 && included[0] === includeOf(countries)
    : !included.length;
}

const exists = (file: string) =>
  fs.lstat(file).then(
    (s) => s.isFile(),
    () => false,
  );

/**
 * The panel's firewall (spec "Firewall") on nftables: one table, replaced atomically after
 * `nft -c`, kept only while the panel still answers, and single elements added at runtime.
 */
export const agent = defineAgentFeature(ops, {
  ops: {
    async 'firewall.ccHave'({ key }) {
      return { have: await haveList(CC, key) };
    },

    async 'firewall.ccPart'(part) {
      return { staged: await stagePart(CC, part) };
    },

    async 'firewall.apply'({ state, cc, confirm_ms, change }) {
      const started = Date.now();
      await fs.mkdir(DIR, { recursive: true, mode: 0o700 });
      const guard = await currentGuard();
      const loaded = await tablePresent();
      if (!state.enabled) {
        await writeFileAtomic(NEXT, renderRemoval(), 0o600);
        await loadFile(NEXT);
        await fs.rename(NEXT, FILE);
        await keepOnly(CC, null);
        return { mode: 'off' as const, ms: Date.now() - started };
      }
      // The country ranges stay in their own file, included: a rollback reloads the previous
      // file with the countries file it included, which stays until the new one held.
      const countries = cc ? await countriesFile(CC, cc) : null;
      const text = renderRuleset(state, guard, await localRules(), countries);
      if (change && loaded && (await keptFileUses(countries))) {
        // The runtime set gets the one element; the file follows for the next boot or reload.
        // Other countries than the loaded table's take the whole apply below instead.
        const { set, element } = elementOf(change);
        await changeElement(change.action, set, element);
        await writeFileAtomic(FILE, text, 0o600);
        return { mode: 'element' as const, ms: Date.now() - started };
      }
      await writeFileAtomic(NEXT, text, 0o600);
      await checkFile(NEXT);
      await loadFile(NEXT);
      if (!(await panelAnswers(confirm_ms))) {
        // Cut off: back to what held before (or no table at all), and say so.
        const back = loaded && (await exists(FILE)) ? FILE : null;
        if (back) await loadFile(back);
        else {
          await writeFileAtomic(NEXT, renderRemoval(), 0o600);
          await loadFile(NEXT);
        }
        await fs.rm(NEXT, { force: true });
        throw new OpError(
          'failed',
          `The new rules stopped this server from reaching the panel (no answer on a new connection within ${confirm_ms} ms): the previous rules were restored`,
        );
      }
      await fs.rename(NEXT, FILE);
      await persistAtBoot(FILE);
      await keepOnly(CC, cc?.key ?? null);
      return { mode: 'full' as const, ms: Date.now() - started };
    },

    async 'firewall.status'() {
      const sets = await readTable();
      const guard = await currentGuard();
      return {
        running: sets !== null,
        enabled: sets !== null,
        counts: sets ? counts(sets) : { allow: 0, deny: 0, temp_allow: 0, temp_deny: 0 },
        ssh_ports: guard.ssh_ports,
      };
    },

    async 'firewall.denylist'() {
      const sets = await readTable();
      return { data: sets ? denyList(sets) : [] };
    },
  },
  locks: {
    // One firewall per server: every change of the table or its file runs alone.
    'firewall.apply': () => ['firewall'],
    'firewall.ccPart': () => ['firewall'],
  },
});
