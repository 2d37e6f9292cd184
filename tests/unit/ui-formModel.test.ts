import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { cronjobs } from '../../features/cron/resource';
import { cronPaths, jobIdOf, jobName } from '../../features/cron/links';
import { defineResource } from '../../resources/define';
import { sysusers } from '../../features/sysusers/resource';
import {
  availabilityBody,
  choiceLabel,
  driftText,
  formFieldNames,
  formFields,
  inputSchemaOf,
  isManaged,
  labelOf,
  recordFieldError,
  recordName,
  referenceChoices,
  savedMessage,
  statusView,
  waiting,
} from '../../src/generic/formModel';
import { matchRoute } from '../../src/routes/match';

describe('the generic form from a declaration', () => {
  it('takes inputs, labels, help and widgets from the cron declaration', () => {
    const fields = formFields(cronjobs);
    expect(fields.map((f) => f.name)).toEqual([
      'label',
      'sys_user',
      'schedule',
      'command',
      'enabled',
    ]);
    const byName = Object.fromEntries(fields.map((f) => [f.name, f]));
    expect(byName.sys_user!.label).toBe('Run as');
    expect(byName.schedule!.label).toBe('When');
    expect(byName.schedule!.help).toMatch(/five fields/i);
    expect(byName.schedule!.widget).toMatchObject({ kind: 'choices', custom: true });
    expect(byName.command!.widget).toEqual({ kind: 'code' });
    expect(byName.sys_user!.widget).toMatchObject({ kind: 'reference', resource: 'sysusers' });
    expect(byName.enabled!.info.type.kind).toBe('boolean');
    expect(byName.enabled!.widget).toBeUndefined();
  });

  it("labels: the page's own, then the declaration's, then one made from the name", () => {
    expect(labelOf(cronjobs, 'sys_user')).toBe('Run as');
    expect(labelOf(cronjobs, 'sys_user', { sys_user: 'User' })).toBe('User');
    expect(labelOf(cronjobs, 'created_at')).toBe('Time');
    expect(labelOf(cronjobs, 'schedule_text')).toBe('Schedule text');
  });

  it("writes with the operation's own body where one is declared", () => {
    // sysusers: created with a name and quotas, changed only in its password.
    expect(formFieldNames(sysusers, 'create')).toEqual([
      'user_name',
      'password',
      'quota_hard',
      'quota_soft',
    ]);
    expect(formFieldNames(sysusers, 'update')).toEqual(['password']);
    expect(inputSchemaOf(cronjobs, 'update')).toBe(cronjobs.input);
  });

  it('keeps only declared form fields the schema has', () => {
    const notes = defineResource({
      name: 'notes',
      label: 'Notes',
      schema: z.object({ id: z.number(), text: z.string() }),
      input: z.object({ text: z.string() }),
      paths: { list: 'notes/users/{uid}' },
      ops: { create: { guard: 'self' } },
      ui: { formFields: ['text', 'gone'] },
    });
    expect(formFieldNames(notes)).toEqual(['text']);
  });
});

describe('reference choices', () => {
  const widget = {
    kind: 'reference' as const,
    resource: 'sysusers',
    optionText: 'user_name',
    optionValue: 'user_name',
    extra: [{ label: 'root', value: 'root' }],
  };

  it('offers the fixed extras first, then the records by their value field', () => {
    const choices = referenceChoices(widget, [
      { id: 1, user_name: 'alice', status: 'active' },
      { id: 2, user_name: 'bob', status: 'pending' },
      { id: 3, user_name: 'root', status: 'active' },
    ]);
    expect(choices).toEqual([
      { id: 'root', name: 'root' },
      { id: 'alice', name: 'alice' },
      // Not on the server yet: listed, not choosable.
      { id: 'bob', name: 'bob (pending)', disabled: true },
    ]);
  });

  it('sends the id by default', () => {
    const byId = referenceChoices({ kind: 'reference', resource: 'dbs', optionText: 'name' }, [
      { id: 7, name: 'shop' },
    ]);
    // A number stays a number: the schema of an id list refuses "7".
    expect(byId).toEqual([{ id: 7, name: 'shop' }]);
  });

  it('names a preset by its value', () => {
    const choices = [{ label: 'Every hour', value: '@hourly' }];
    expect(choiceLabel(choices, ' @hourly ')).toBe('Every hour');
    expect(choiceLabel(choices, '5 * * * *')).toBeNull();
  });
});

describe('managed status', () => {
  it('says where a record stands; a failed one gives the reason', () => {
    expect(statusView({ status: 'active', error: null })).toMatchObject({
      label: 'Active',
      color: 'success',
      detail: null,
    });
    expect(statusView({ status: 'failed', error: 'no such user' })).toMatchObject({
      label: 'Failed',
      color: 'error',
      detail: 'no such user',
    });
    expect(statusView({ status: 'pending' })?.detail).toMatch(/waiting/i);
    expect(statusView({ status: 'deleting' })?.label).toBe('Deleting');
    expect(statusView({ status: 'open' })).toBeNull();
  });

  it('reads a list again only while a row waits for the server', () => {
    expect(waiting([{ status: 'active' }, { status: 'failed' }])).toBe(false);
    expect(waiting([{ status: 'active' }, { status: 'pending' }])).toBe(true);
    expect(waiting([{ status: 'deleting' }])).toBe(true);
    expect(waiting(undefined)).toBe(false);
  });

  it('knows a managed resource by its status and error fields', () => {
    expect(isManaged(cronjobs)).toBe(true);
    expect(isManaged(sysusers)).toBe(true);
  });

  it('drift after a check against the server', () => {
    expect(driftText('missing')).toBe('Missing on the server');
    expect(driftText('changed')).toBe('Changed on the server');
    expect(driftText(null)).toBeNull();
    expect(driftText(undefined)).toBeNull();
  });

  it('puts the stored refusal on its field when the form shows it', () => {
    const failed = { status: 'failed', error: 'bad schedule', error_field: 'schedule' };
    expect(recordFieldError(failed, ['schedule', 'command'])).toEqual({
      field: 'schedule',
      message: 'bad schedule',
    });
    expect(recordFieldError(failed, ['command'])).toBeNull();
    expect(recordFieldError({ ...failed, status: 'active' }, ['schedule'])).toBeNull();
  });

  it('tells an offline save from one the server applied', () => {
    expect(savedMessage({ status: 'active' }, 'The cron job', 'created')).toEqual({
      text: 'The cron job was created.',
      type: 'success',
    });
    const pending = savedMessage({ status: 'pending' }, 'The cron job', 'created');
    expect(pending.type).toBe('info');
    expect(pending.text).toMatch(/offline.*applied when it reconnects/);
    expect(savedMessage({ status: 'deleting' }, 'Cron job #3', 'deleted').text).toMatch(
      /removed when the server is back online/,
    );
  });

  it('names a record by its representation, else its id', () => {
    expect(recordName(cronjobs, { id: 4, label: 'nightly' })).toBe('nightly');
    expect(recordName(cronjobs, { id: 4, label: '' })).toBe('#4');
  });
});

describe('availability check body', () => {
  const schema = z.object({
    user_name: z.string().regex(/^[a-z][a-z0-9_-]{0,31}$/),
    password: z.string().min(12),
    quota: z.number().default(0),
  });

  it('is asked only for a valid name, with stand-ins for what is not typed yet', () => {
    expect(availabilityBody(schema, { user_name: 'Bad Name' }, 'user_name')).toBeNull();
    const body = availabilityBody(schema, { user_name: 'alice', password: 'short' }, 'user_name', {
      password: () => 'x'.repeat(20),
    });
    expect(body).toEqual({ user_name: 'alice', password: 'x'.repeat(20) });
    const typed = availabilityBody(
      schema,
      { user_name: 'alice', password: 'a long enough one', quota: 5 },
      'user_name',
    );
    expect(typed).toEqual({ user_name: 'alice', password: 'a long enough one', quota: 5 });
  });
});

describe('cron pages', () => {
  it('have the spec routes, the server ones in the server layout', () => {
    for (const path of ['/cron-jobs/7', '/create-cron-job/7', '/edit-cron-job/7']) {
      const match = matchRoute(path);
      expect(match?.route.layout, path).toBe('webApp');
      expect(match?.params.id).toBe('7');
    }
    expect(matchRoute('/cron-job')?.route.layout).toBe('main');
  });

  it('name a job by ?job= on the server path', () => {
    expect(cronPaths.edit(7, 12)).toBe('/edit-cron-job/7?job=12');
    expect(jobIdOf('?job=12')).toBe(12);
    expect(jobIdOf('?job=0')).toBeNull();
    expect(jobIdOf('?job=abc')).toBeNull();
    expect(jobIdOf('')).toBeNull();
    expect(jobName({ id: 3, label: 'nightly' })).toBe('cron job "nightly"');
    expect(jobName({ id: 3, label: '' })).toBe('cron job #3');
  });
});
