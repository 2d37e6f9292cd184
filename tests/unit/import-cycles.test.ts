import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * No import cycles, type-only imports included. `import-x/no-cycle` in eslint.config.js keeps
 * runtime cycles out as you type; it skips `import type` edges, which vanish at runtime but still
 * tie modules together (a declaration that imports its gatherer). This walks every relative
 * import TypeScript itself sees, in the five program folders.
 */
const ROOT = path.resolve(__dirname, '../..');
const FOLDERS = ['resources', 'dataProvider', 'src', 'server', 'agent'];
const SOURCE = /\.(ts|tsx)$/;
const CANDIDATES = ['', '.ts', '.tsx', '/index.ts', '/index.tsx'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === 'node_modules' ? [] : sourceFiles(full);
    return SOURCE.test(name) && !name.endsWith('.d.ts') ? [full] : [];
  });
}

function resolveImport(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = path.resolve(path.dirname(from), specifier);
  for (const suffix of CANDIDATES) {
    const file = base + suffix;
    if (SOURCE.test(file) && existsSync(file) && statSync(file).isFile()) return file;
  }
  return undefined;
}

function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of FOLDERS.flatMap((f) => sourceFiles(path.join(ROOT, f)))) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = importedFiles
      .map((i) => resolveImport(file, i.fileName))
      .filter((t): t is string => t !== undefined);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** Each strongly connected component of more than one file (or a file importing itself). */
function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component);
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found.map((c) => c.map((f) => path.relative(ROOT, f)).sort());
}

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
    expect(
      cycles(
        new Map([
          [a, [b]],
          [b, [a]],
        ]),
      ),
    ).toEqual([['a.ts', 'b.ts']]);
  });
});
