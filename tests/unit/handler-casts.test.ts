import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '../..');

/** The messages the project's lint config gives a snippet at `file`. */
async function lint(code: string, file: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: ROOT });
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === 'no-restricted-syntax')
    .map((m) => m.message);
}

/**
 * Handlers read their query and body as the declaration typed them (issue 23): a new cast of
 * `ctx.query` / `ctx.body` in the panel or a feature is refused by lint.
 */
// Loading the project's lint config takes seconds, many on a busy machine: not a timed test.
describe('no casts of a handler context', { timeout: 60_000 }, () => {
  const code = [
    'declare const ctx: { query: unknown; body: unknown };',
    'export const q = (ctx.query as { name: string }).name;',
    'export const b = <{ n: number }>ctx.body;',
    'export const fine = ctx.query;',
  ].join('\n');

  it('refuses them in a feature and in server/', async () => {
    for (const file of ['features/example/server.ts', 'server/http/example.ts']) {
      const messages = await lint(code, file);
      expect(messages).toHaveLength(2);
      expect(messages[0]).toMatch(/No cast of ctx\.query \/ ctx\.body/);
    }
  });

  it('leaves other casts alone', async () => {
    const other = 'declare const x: unknown;\nexport const y = x as { query: string };';
    expect(await lint(other, 'features/example/server.ts')).toEqual([]);
  });
});
