// The project's own lint rules: no import cycles (type-only imports included) and the layer
// boundaries of DESIGN.md ("A feature is a folder"). Local, so no plugin with a native resolver
// is needed (the registry here serves only some platforms' builds of those).
import path from 'node:path';
import { ROOT, cycles, importGraph, importsOf, resolveImport } from './importGraph.mjs';

/**
 * The layer of a file: its top-level folder, or inside a feature folder (features/<name>/) the
 * program its name says: `server*.ts` the panel, `agent*.ts` the agent, `*.tsx` and `routes.ts`
 * the browser, anything else (resource.ts and pure helpers) what all three load, as resources/.
 */
function topOf(file) {
  const parts = path.relative(ROOT, file).split(path.sep);
  if (parts[0] !== 'features' || parts.length < 3) return parts[0];
  const name = parts.at(-1).replace(/\.(ts|tsx|mjs|js)$/, '');
  if (/\.tsx$/.test(file) || name === 'routes' || parts.length > 3) return 'src';
  if (name.startsWith('server')) return 'server';
  if (name.startsWith('agent')) return 'agent';
  return 'resources';
}

/**
 * Who may import whom: resources/ is loaded by the panel, the agent and the browser, which share
 * code only through it. Keys: the importing folder; values: folders it may not import.
 */
const FORBIDDEN = {
  resources: ['server', 'agent', 'src', 'dataProvider', 'tests', 'scripts', 'bench'],
  agent: ['server', 'src', 'dataProvider'],
  server: ['agent', 'src', 'dataProvider'],
  src: ['server', 'agent'],
  dataProvider: ['server', 'agent'],
};
/** Files under resources/ that only Node programs load: the browser may not import them. */
const NODE_ONLY = ['resources/agent/fingerprint.ts', 'resources/agent/addressPolicy.ts'];

const sourceOf = (node) =>
  node.source && typeof node.source.value === 'string' ? node.source : null;

const layers = {
  meta: {
    type: 'problem',
    docs: { description: 'Keep the layers apart: they share code only through resources/.' },
    schema: [],
  },
  create(context) {
    const file = context.filename;
    const from = topOf(file);
    const forbidden = FORBIDDEN[from];
    if (!forbidden) return {};
    const check = (node) => {
      const source = sourceOf(node);
      if (!source || !source.value.startsWith('.')) return;
      const target = path.resolve(path.dirname(file), source.value);
      const to = topOf(target);
      const rel = path.relative(ROOT, resolveImport(file, source.value) ?? target);
      if (forbidden.includes(to)) {
        context.report({
          node: source,
          message: `${from}/ may not import ${to}/: the programs share code only through resources/ (in a feature folder: its resource.ts and pure helpers).`,
        });
      } else if ((from === 'src' || from === 'dataProvider') && NODE_ONLY.includes(rel)) {
        context.report({ node: source, message: `${rel} needs Node: not for the browser bundle.` });
      }
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
    };
  },
};

/** The graph, read once per lint run (a run lints every file against the same tree). */
let graph;
let cyclic;

const noCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'No import cycles, type-only imports included.' },
    schema: [],
  },
  create(context) {
    const file = context.filename;
    if (!graph) {
      graph = importGraph();
      cyclic = new Map();
      for (const component of cycles(graph))
        for (const member of component) cyclic.set(member, component);
    }
    // The file as it is being linted (maybe unsaved), checked against the graph of the rest.
    const component = cyclic.get(file);
    if (!graph.has(file) && !component) {
      const own = importsOf(file, context.sourceCode.text);
      if (!own.some((target) => reaches(target, file))) return {};
    } else if (!component) return {};
    return {
      Program(node) {
        const others = (component ?? [])
          .filter((f) => f !== file)
          .map((f) => path.relative(ROOT, f));
        context.report({
          node,
          message: `This file is on an import cycle${others.length ? ` with ${others.join(', ')}` : ''}.`,
        });
      },
    };
  },
};

function reaches(start, goal) {
  const seen = new Set();
  const todo = [start];
  while (todo.length) {
    const f = todo.pop();
    if (f === goal) return true;
    if (seen.has(f)) continue;
    seen.add(f);
    todo.push(...(graph.get(f) ?? []));
  }
  return false;
}

export default { rules: { layers, 'no-cycle': noCycle } };
