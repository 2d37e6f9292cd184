import path from 'node:path';
import { RuleTester } from 'eslint';
import { describe, expect, it } from 'vitest';
import { ROOT, cycles, importGraph } from '../../eslint/importGraph.mjs';
import stackdeck from '../../eslint/rules.mjs';

/**
 * No import cycles, type-only imports included, and the layer boundaries: the lint rules of
 * eslint/rules.mjs, checked here on the whole tree and on small cases that must be refused.
 */
describe('import graph', () => {
  const graph = importGraph();

  it('sees the program folders', () => {
    expect(graph.size).toBeGreaterThan(300);
    // server/app.ts reaches the migrator: resolution works.
    expect(graph.get(path.join(ROOT, 'server/app.ts'))).toContain(
      path.join(ROOT, 'server/db/migrate.ts'),
    );
  });

  it('has no cycles, type-only imports included', () => {
    expect(cycles(graph)).toEqual([]);
  });

  it('finds a cycle when there is one', () => {
    const a = path.join(ROOT, 'a.ts');
    const b = path.join(ROOT, 'b.ts');
    const found = cycles(
      new Map([
        [a, [b]],
        [b, [a]],
      ]),
    );
    expect(found.map((c: string[]) => c.map((f) => path.relative(ROOT, f)).sort())).toEqual([
      ['a.ts', 'b.ts'],
    ]);
  });
});

describe('stackdeck/layers', () => {
  RuleTester.describe = describe;
  RuleTester.it = it;
  const tester = new RuleTester({
    languageOptions: { ecmaVersion: 2024, sourceType: 'module' },
  });
  const at = (file: string) => path.join(ROOT, file);
  tester.run('layers', stackdeck.rules.layers, {
    valid: [
      { code: "import { z } from 'zod';", filename: at('resources/x.ts') },
      { code: "import { users } from '../resources/users';", filename: at('server/x.ts') },
      { code: "import { users } from '../resources/users';", filename: at('agent/x.ts') },
      // src/pages/server/ is a folder of the browser, not the panel's server/.
      { code: "import { a } from './server/a';", filename: at('src/pages/x.ts') },
      // A feature folder: each file in its program, all sharing the declaration.
      { code: "import { ops } from './resource';", filename: at('features/x/agent.ts') },
      { code: "import { ops } from './resource';", filename: at('features/x/server.ts') },
      { code: "import { r } from './resource';", filename: at('features/x/Page.tsx') },
      { code: "import { a } from '../../server/feature';", filename: at('features/x/server.ts') },
    ],
    invalid: [
      { code: "import { a } from '../server/app';", filename: at('resources/x.ts') },
      { code: "import { a } from '../server/app';", filename: at('agent/x.ts') },
      { code: "export * from '../../agent/ops';", filename: at('server/x/y.ts') },
      { code: "import('../server/app');", filename: at('src/x.ts') },
      { code: "import { a } from '../src/App';", filename: at('server/x.ts') },
      {
        code: "import { f } from '../../resources/agent/fingerprint';",
        filename: at('src/x/y.ts'),
      },
      { code: "import { a } from './server';", filename: at('features/x/resource.ts') },
      { code: "import { a } from './agent';", filename: at('features/x/server.ts') },
      { code: "import { a } from './server';", filename: at('features/x/Page.tsx') },
      { code: "import { a } from '../../agent/lib/exec';", filename: at('features/x/schedule.ts') },
    ].map((c) => ({ ...c, errors: 1 })),
  });
});
