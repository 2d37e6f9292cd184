import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { opLocks, opTable } from '../../agent/ops/index';
import { OP_NAMES } from '../../resources/agent/ops';
import type { Widget } from '../../resources/define';
import { resources } from '../../resources/index';
// @ts-expect-error -- a plain .mjs script, no types
import { generated } from '../../scripts/gen-features.mjs';

const ROOT = path.resolve(import.meta.dirname, '../..');

describe('feature folders', () => {
  it('the generated lists name every feature folder (npm run features after adding one)', async () => {
    for (const { out, text } of (await generated()) as { out: string; text: string }[]) {
      expect(readFileSync(path.join(ROOT, out), 'utf8'), `${out} is stale`).toBe(text);
    }
  });

  it('the agent implements every op declared, and locks only declared ops', () => {
    for (const name of OP_NAMES) expect(typeof opTable[name], name).toBe('function');
    for (const name of Object.keys(opLocks)) expect(OP_NAMES, name).toContain(name);
  });

  it('every widget that reads another resource names a declared one (and a GET action)', () => {
    const all: Record<string, { actions?: Record<string, { method: string }> }> = resources;
    for (const [name, def] of Object.entries(resources)) {
      const widgets: Readonly<Record<string, Widget>> = def.ui?.widgets ?? {};
      for (const [field, widget] of Object.entries(widgets)) {
        const where = `${name}.${field}`;
        if (widget.kind === 'reference') expect(all, where).toHaveProperty([widget.resource]);
        if (widget.kind === 'offered') {
          expect(all[widget.resource]?.actions?.[widget.action]?.method, where).toBe('GET');
        }
      }
    }
  });
});
