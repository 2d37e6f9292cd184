// The project's own lint rules: no import cycles (type-only imports included), the layer
// boundaries of DESIGN.md ("A feature is a folder"), and features that import each other only
// through the doors they offer, never in a circle ("Features talk through events, not
// imports"). Local, so no plugin with a native resolver is needed (the registry here serves
// only some platforms' builds of those).
import path from 'node:path';
import {
  ROOT,
  cycles,
  featureGraph,
  featureOf,
  importGraph,
  importsOf,
  resolveImport,
} from './importGraph.mjs';

/** A feature's .ts files that only the browser loads: its pages and its menu entries. */
const BROWSER_FILES = ['routes', 'menu'];

/**
 * The layer of a file: its top-level folder, or inside a feature folder (features/<name>/) the
 * program its name says: `server*.ts` the panel, `agent*.ts` the agent, `*.tsx`, `routes.ts` and
 * `menu.ts` the browser, anything else (resource.ts and pure helpers) what all three load, as
 * resources/.
 */
function topOf(file) {
  const parts = path.relative(ROOT, file).split(path.sep);
  if (parts[0] !== 'features' || parts.length < 3) return parts[0];
  const name = parts.at(-1).replace(/\.(ts|tsx|mjs|js)$/, '');
  if (/\.tsx$/.test(file) || BROWSER_FILES.includes(name) || parts.length > 3) return 'src';
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
    if (!cyclic) {
      graph ??= importGraph();
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

/**
 * A feature's doors: what it offers other features, one file per program that loads it —
 * `api.ts` (every program: declarations, names, pure helpers), `serverApi.ts` (the panel),
 * `agentApi.ts` (the agent), `pagesApi.tsx` (the browser). One door could not serve all three:
 * each program may load only its own code (stackdeck/layers).
 */
export const DOORS = ['api', 'serverApi', 'agentApi', 'pagesApi'];

let features;

/** Whether feature `start` reaches feature `goal` through the features' imports. */
function featureReaches(start, goal) {
  if (!features) features = featureGraph(graph ?? (graph = importGraph()));
  const seen = new Set();
  const todo = [start];
  while (todo.length) {
    const f = todo.pop();
    if (f === goal) return true;
    if (seen.has(f)) continue;
    seen.add(f);
    todo.push(...(features.get(f) ?? []));
  }
  return false;
}

const featureApi = {
  meta: {
    type: 'problem',
    docs: {
      description:
        'A feature imports another only through its doors (api.ts, serverApi.ts, agentApi.ts, pagesApi.tsx), and features import in no circle.',
    },
    schema: [],
  },
  create(context) {
    const file = context.filename;
    const from = featureOf(file);
    if (!from) return {};
    const check = (node) => {
      const source = sourceOf(node);
      if (!source || !source.value.startsWith('.')) return;
      const target =
        resolveImport(file, source.value) ?? path.resolve(path.dirname(file), source.value);
      const to = featureOf(target);
      if (!to || to === from) return;
      const rest = path
        .relative(path.join(ROOT, 'features', to), target)
        .replace(/\.(ts|tsx|mjs|js)$/, '');
      if (!DOORS.includes(rest)) {
        context.report({
          node: source,
          message: `features/${from} may use features/${to} only through what it offers: its api.ts (or serverApi.ts, agentApi.ts, pagesApi.tsx), not ${rest}. Export it there, or raise an event (server/events).`,
        });
      } else if (featureReaches(to, from)) {
        context.report({
          node: source,
          message: `features/${to} already reaches features/${from}: features may not import in a circle. Raise an event (server/events) or fill a page slot (src/shell/slots.tsx) instead, or move the shared helper down.`,
        });
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

export default { rules: { layers, 'no-cycle': noCycle, 'feature-api': featureApi } };
