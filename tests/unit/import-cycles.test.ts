import path from 'node:path';
import { RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import { ROOT, cycles, featureGraph, featureOf, importGraph } from '../../eslint/importGraph.mjs';
import stackdeck, { DOORS } from '../../eslint/rules.mjs';

/**
 * No import cycles, type-only imports included, the layer boundaries, and features that use
 * each other only through their doors and in no circle: the lint rules of eslint/rules.mjs,
 * checked here on the whole tree and on small cases that must be refused.
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
      // A feature's menu entries are the browser's: they name the shell's types.
      {
        code: "import { m } from '../../src/shell/menuTypes';",
        filename: at('features/x/menu.ts'),
      },
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
      { code: "import { a } from './server';", filename: at('features/x/menu.ts') },
      { code: "import { a } from '../../agent/lib/exec';", filename: at('features/x/schedule.ts') },
    ].map((c) => ({ ...c, errors: 1 })),
  });
});

describe('features', () => {
  const graph = importGraph();

  it('use each other only through the doors they offer (api.ts, serverApi.ts, ...)', () => {
    const through: string[] = [];
    for (const [file, targets] of graph) {
      const from = featureOf(file);
      if (!from) continue;
      for (const target of targets) {
        const to = featureOf(target);
        if (!to || to === from) continue;
        const rest = path
          .relative(path.join(ROOT, 'features', to), target)
          .replace(/\.(ts|tsx)$/, '');
        through.push(`${path.relative(ROOT, file)} -> features/${to}/${rest}`);
      }
    }
    expect(through.length).toBeGreaterThan(100);
    expect(through.filter((i) => !DOORS.includes(i.split('/').at(-1)!))).toEqual([]);
  });

  it('import each other in no circle, type-only imports included', () => {
    const features = featureGraph(graph);
    expect(features.get('ssl')).toContain('webapps');
    expect(cycles(features)).toEqual([]);
  });

  it('finds a circle of features when there is one', () => {
    const file = (f: string) => path.join(ROOT, 'features', f);
    const features = featureGraph(
      new Map([
        [file('a/server.ts'), [file('b/serverApi.ts')]],
        [file('b/serverApi.ts'), [file('b/serverKind.ts')]],
        [file('b/serverKind.ts'), [file('c/api.ts')]],
        [file('c/routes.ts'), [file('a/api.ts')]],
        [path.join(ROOT, 'server/app.ts'), [file('a/server.ts')]],
      ]),
    );
    expect(features.get('a')).toEqual(['b']);
    expect(cycles(features).map((c: string[]) => [...c].sort())).toEqual([['a', 'b', 'c']]);
  });
});

describe('stackdeck/feature-api', () => {
  RuleTester.describe = describe;
  RuleTester.it = it;
  // TypeScript's parser: type-only imports are refused too.
  const tester = new RuleTester({
    languageOptions: { ecmaVersion: 2024, sourceType: 'module', parser: tseslint.parser },
  });
  const at = (file: string) => path.join(ROOT, file);
  tester.run('feature-api', stackdeck.rules['feature-api'], {
    valid: [
      {
        code: "import { appName } from '../webapps/api';",
        filename: at('features/ftp/resource.ts'),
      },
      {
        code: "import type { WebappRow } from '../webapps/serverApi';",
        filename: at('features/ftp/server.ts'),
      },
      {
        code: "import { useApp } from '../webapps/pagesApi';",
        filename: at('features/ftp/Page.tsx'),
      },
      {
        code: "import { applyApp } from '../webapps/agentApi';",
        filename: at('features/ssl/agent.ts'),
      },
      // Its own files, and the platform's, are not another feature's.
      { code: "import { ftpKind } from './serverKind';", filename: at('features/ftp/server.ts') },
      {
        code: "import { emit } from '../../server/events/emit';",
        filename: at('features/ftp/x.ts'),
      },
    ],
    invalid: [
      {
        code: "import { webappHooks } from '../webapps/serverHooks';",
        filename: at('features/ftp/server.ts'),
      },
      {
        code: "import type { WebappRow } from '../webapps/serverTable';",
        filename: at('features/ftp/server.ts'),
      },
      {
        code: "export { appName } from '../webapps/schemas';",
        filename: at('features/ftp/api.ts'),
      },
      { code: "import('../clone/CloneButton');", filename: at('features/ftp/Page.tsx') },
      // A door, but webapps -> ftp would close a circle: ftp uses webapps.
      { code: "import { ftp } from '../ftp/api';", filename: at('features/webapps/resource.ts') },
    ].map((c) => ({ ...c, errors: 1 })),
  });
});
