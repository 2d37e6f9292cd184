import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/** Issue 22: WCAG 2.1 A and AA, the rules axe-core tags for them. */
export const WCAG_21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/**
 * axe's WCAG 2.1 A/AA rules it still calls experimental: off by default, on here (the issue's
 * count includes label-content-name-mismatch, a visible label missing from a button's name).
 */
const EXPERIMENTAL_WCAG_RULES = Object.fromEntries(
  [
    'label-content-name-mismatch',
    'css-orientation-lock',
    'p-as-heading',
    'table-fake-caption',
    'td-has-header',
  ].map((rule) => [rule, { enabled: true }]),
);

/** The impacts a page may not have; moderate and minor ones are reported, not failed on. */
const BLOCKING = new Set(['serious', 'critical']);

/** One rule broken on one page: the unit the issue counts ("184 violations on 87 pages"). */
export interface AxeFinding {
  page: string;
  rule: string;
  impact: string;
  help: string;
  /** The first few elements concerned, as axe's CSS selectors, to find them in the source. */
  targets: string[];
  html: string[];
}

/** The serious and critical WCAG 2.1 A/AA violations of the page as it stands. */
export async function blockingViolations(page: Page, label: string): Promise<AxeFinding[]> {
  // Legacy mode runs axe.run in the page itself: the default opens a blank page per run to merge
  // frames' results, three to four times slower here; the panel has no cross-origin frames.
  const results = await new AxeBuilder({ page })
    .options({
      runOnly: { type: 'tag', values: WCAG_21_AA },
      rules: EXPERIMENTAL_WCAG_RULES,
      resultTypes: ['violations'],
    })
    .setLegacyMode()
    .analyze();
  return results.violations
    .filter((violation) => violation.impact && BLOCKING.has(violation.impact))
    .map((violation) => ({
      page: label,
      rule: violation.id,
      impact: violation.impact ?? '',
      help: violation.help,
      targets: violation.nodes.slice(0, 3).map((node) => node.target.join(' ')),
      html: violation.nodes.slice(0, 3).map((node) => node.html.slice(0, 200)),
    }));
}

/** Per rule: how many pages break it, and the pages with an example element each. */
export function axeReport(findings: AxeFinding[]): string {
  const byRule = new Map<string, AxeFinding[]>();
  for (const finding of findings) {
    byRule.set(finding.rule, [...(byRule.get(finding.rule) ?? []), finding]);
  }
  const pages = new Set(findings.map((finding) => finding.page));
  const lines = [`${findings.length} serious/critical violations on ${pages.size} pages`];
  for (const [rule, list] of byRule) {
    lines.push(`${rule} (${list[0]!.impact}): ${list.length} pages: ${list[0]!.help}`);
    for (const finding of list) {
      lines.push(`  ${finding.page}: ${finding.targets.join(' | ')}`);
      lines.push(`    ${finding.html.join(' | ')}`);
    }
  }
  return lines.join('\n');
}
