// The project's import graph, read with TypeScript's own pre-processor: every relative import,
// type-only ones included. Shared by the lint rules (eslint/rules.mjs) and the unit test that
// checks them (tests/unit/import-cycles.test.ts). Plain JavaScript, no native dependency: the
// project installs with `npm ci` from the lock file on any platform.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export const ROOT = path.resolve(import.meta.dirname, '..');
/** The program folders whose imports form the graph. */
export const FOLDERS = ['resources', 'dataProvider', 'src', 'server', 'agent', 'features'];
const SOURCE = /\.(ts|tsx)$/;
const CANDIDATES = ['', '.ts', '.tsx', '/index.ts', '/index.tsx'];

function sourceFiles(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === 'node_modules' ? [] : sourceFiles(full);
    return SOURCE.test(name) && !name.endsWith('.d.ts') ? [full] : [];
  });
}

/** The file a relative specifier names, or undefined for packages and non-sources. */
export function resolveImport(from, specifier) {
  if (!specifier.startsWith('.')) return undefined;
  const base = path.resolve(path.dirname(from), specifier);
  for (const suffix of CANDIDATES) {
    const file = base + suffix;
    if (SOURCE.test(file) && existsSync(file) && statSync(file).isFile()) return file;
  }
  return undefined;
}

/** Every relative import a source text makes (type-only and dynamic ones included). */
export function importsOf(file, text) {
  const { importedFiles } = ts.preProcessFile(text, true, true);
  const targets = importedFiles
    .map((i) => resolveImport(file, i.fileName))
    .filter((t) => t !== undefined);
  return [...new Set(targets)];
}

/** file → the files it imports, for every source file of the program folders. */
export function importGraph(root = ROOT) {
  const graph = new Map();
  for (const file of FOLDERS.flatMap((f) => sourceFiles(path.join(root, f)))) {
    graph.set(file, importsOf(file, readFileSync(file, 'utf8')));
  }
  return graph;
}

/** Each strongly connected component of more than one file (or a file importing itself). */
export function cycles(graph) {
  let next = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  const visit = (v) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v), index.get(w)));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component);
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

/** The feature folder of a file (features/<name>/...), or undefined outside them. */
export function featureOf(file, root = ROOT) {
  const parts = path.relative(path.join(root, 'features'), file).split(path.sep);
  return parts.length > 1 && parts[0] !== '..' ? parts[0] : undefined;
}

/**
 * The features' own graph: feature → the features its files import (type-only imports
 * included), from the file graph.
 */
export function featureGraph(graph, root = ROOT) {
  const features = new Map();
  for (const [file, targets] of graph) {
    const from = featureOf(file, root);
    if (!from) continue;
    if (!features.has(from)) features.set(from, []);
    for (const target of targets) {
      const to = featureOf(target, root);
      if (to && to !== from && !features.get(from).includes(to)) features.get(from).push(to);
    }
  }
  return features;
}
