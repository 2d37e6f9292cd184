import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { authlogs } from '../../resources/authlogs';
import { defineResource } from '../../resources/define';
import { outbox } from '../../resources/outbox';
import { resourceUi } from '../../src/generic/resourceUi';

const notes = defineResource({
  name: 'server-notes',
  label: 'Notes',
  schema: z.object({ id: z.number(), text: z.string() }),
  input: z.object({ text: z.string() }),
  paths: { list: 'notes/servers/{sid}/users/{uid}', one: 'notes/{id}/servers/{sid}/users/{uid}' },
  ops: {
    list: { guard: 'self' },
    get: { guard: 'self' },
    create: { guard: 'self' },
    update: { guard: 'self' },
  },
  ui: { recordRepresentation: 'text' },
});

describe('resourceUi: a UI folder default export from a declaration', () => {
  it('gives a page only for each declared operation', () => {
    const ui = resourceUi(authlogs) as Record<string, unknown>;
    expect(typeof ui.list).toBe('function');
    expect(ui).not.toHaveProperty('show');
    expect(ui).not.toHaveProperty('create');
    expect(ui).not.toHaveProperty('edit');
    expect(Object.keys(resourceUi(outbox)).sort()).toEqual(
      ['icon', 'list', 'recordRepresentation', 'show'].sort(),
    );
  });

  it('builds list, show, create and edit for a full CRUD resource, named after it', () => {
    const ui = resourceUi(notes);
    expect((ui.list as { displayName?: string }).displayName).toBe('ServerNotesList');
    expect((ui.create as { displayName?: string }).displayName).toBe('ServerNotesCreate');
    expect((ui.edit as { displayName?: string }).displayName).toBe('ServerNotesEdit');
    expect((ui.show as { displayName?: string }).displayName).toBe('ServerNotesShow');
    expect(ui.recordRepresentation).toBe('text');
  });

  it('uses a hand-written page where one is given, and the given icon', () => {
    const Custom = () => null;
    const Icon = () => null;
    const ui = resourceUi(notes, { pages: { edit: Custom }, icon: Icon as never });
    expect(ui.edit).toBe(Custom);
    expect(ui.icon).toBe(Icon);
    expect(ui.create).not.toBe(Custom);
  });
});
