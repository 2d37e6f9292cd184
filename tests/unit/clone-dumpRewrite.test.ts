import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import {
  type ColumnMode,
  type DumpPlan,
  DumpRewriter,
  escapeSql,
  unescapeSql,
} from '../../features/clone/agentDumpRewrite';
import { urlPairs } from '../../features/clone/serialized';

/**
 * The rewrite of mariadb-dump's INSERT lines (tests/system/clone-core.test.ts runs it between
 * the real mariadb-dump and mariadb, and checks the copy with PHP).
 */
const pairs = urlPairs('a.test', 'new-site.example');
const plan: DumpPlan = new Map<string, Map<string, ColumnMode>>([
  [
    'wp_options',
    new Map([
      ['option_name', 'text'],
      ['option_value', 'text'],
    ]),
  ],
  ['kv', new Map([['v', 'blob']])],
]);
const rewrite = (line: string) => new DumpRewriter(plan, pairs).line(Buffer.from(line)).toString();

describe('escapeSql / unescapeSql', () => {
  it('round-trip every byte as the client reads them back', () => {
    const all = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
    expect(unescapeSql(escapeSql(all)).equals(all)).toBe(true);
    expect(escapeSql(Buffer.from('a\'b"c\\d\ne\0')).toString()).toBe('a\\\'b\\"c\\\\d\\ne\\0');
  });
});

describe('DumpRewriter', () => {
  it('rewrites the planned text columns, serialized lengths kept right, other bytes as they were', () => {
    const value = 'a:1:{s:3:"url";s:15:"https://a.test/";}';
    const line =
      'INSERT INTO `wp_options` (`option_id`, `option_name`, `option_value`, `autoload`) VALUES ' +
      `(1,'siteurl','https://a.test','yes'),(2,'it\\'s','${value.replace(/"/g, '\\"')}','https://a.test'),(3,'x',NULL,'no');`;
    expect(rewrite(line)).toBe(
      'INSERT INTO `wp_options` (`option_id`, `option_name`, `option_value`, `autoload`) VALUES ' +
        "(1,'siteurl','https://new-site.example','yes')," +
        `(2,'it\\'s','a:1:{s:3:\\"url\\";s:25:\\"https://new-site.example/\\";}','https://a.test'),(3,'x',NULL,'no');`,
    );
  });

  it('counts the rows it changed', () => {
    const rewriter = new DumpRewriter(plan, pairs);
    rewriter.line(
      Buffer.from(
        "INSERT INTO `wp_options` (`option_name`, `option_value`) VALUES ('a','https://a.test'),('b','none'),('c','//a.test');",
      ),
    );
    expect(rewriter.rowsChanged).toBe(2);
  });

  it('rewrites blobs given as hex, and leaves tables and lines outside the plan alone', () => {
    const hex = Buffer.from('see https://a.test/x').toString('hex').toUpperCase();
    const want = Buffer.from('see https://new-site.example/x').toString('hex').toUpperCase();
    expect(rewrite(`INSERT INTO \`kv\` (\`k\`, \`v\`) VALUES ('https://a.test',0x${hex});`)).toBe(
      `INSERT INTO \`kv\` (\`k\`, \`v\`) VALUES ('https://a.test',0x${want});`,
    );
    for (const line of [
      "INSERT INTO `other` (`v`) VALUES ('https://a.test');",
      '-- https://a.test in a comment',
      "CREATE TABLE `wp_options` (`x` varchar(20) DEFAULT 'https://a.test');",
    ])
      expect(rewrite(line)).toBe(line);
  });

  it('refuses a line it cannot read rather than pass it on half-replaced', () => {
    expect(() =>
      rewrite(
        "INSERT INTO `wp_options` (`option_name`, `option_value`) VALUES ('a','https://a.test",
      ),
    ).toThrow(/does not end/);
  });

  it('as a stream stage, lines split across chunks come out whole and rewritten', async () => {
    const dump =
      '/*!40101 SET NAMES utf8mb4 */;\n' +
      "INSERT INTO `wp_options` (`option_name`, `option_value`) VALUES ('home','https://a.test'),('x','y');\n" +
      'UNLOCK TABLES;\n';
    const bytes = Buffer.from(dump);
    const chunks = Array.from({ length: Math.ceil(bytes.length / 7) }, (_, i) =>
      bytes.subarray(i * 7, i * 7 + 7),
    );
    const out: Buffer[] = [];
    for await (const piece of Readable.from(chunks).pipe(new DumpRewriter(plan, pairs).stream()))
      out.push(piece as Buffer);
    expect(Buffer.concat(out).toString()).toBe(
      dump.replace('https://a.test', 'https://new-site.example'),
    );
  });
});

describe('DumpRewriter on MariaDB 10.11 dumps', () => {
  it('follows an INSERT whose rows come one per line, and the statements after it', () => {
    const rewriter = new DumpRewriter(plan, pairs);
    const lines = [
      "INSERT INTO `wp_options` (`option_name`, `option_value`) VALUES ('a','https://a.test'),",
      "('b','https://a.test/x'),",
      "('c','none');",
      "INSERT INTO `other` (`v`) VALUES ('https://a.test'),",
      "('https://a.test');",
      'INSERT INTO `wp_options` (`option_name`, `option_value`) VALUES',
      "('d','//a.test');",
    ].map((l) => rewriter.line(Buffer.from(l)).toString());
    expect(lines).toEqual([
      "INSERT INTO `wp_options` (`option_name`, `option_value`) VALUES ('a','https://new-site.example'),",
      "('b','https://new-site.example/x'),",
      "('c','none');",
      "INSERT INTO `other` (`v`) VALUES ('https://a.test'),",
      "('https://a.test');",
      'INSERT INTO `wp_options` (`option_name`, `option_value`) VALUES',
      "('d','//new-site.example');",
    ]);
    expect(rewriter.rowsChanged).toBe(3);
  });
});
