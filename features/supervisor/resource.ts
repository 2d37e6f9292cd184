/**
 * Supervisor jobs (spec "Supervisor"): long-running programs of a server, kept running by
 * supervisord, each its own file `/etc/supervisor/conf.d/stackdeck-<name>.conf`, as root or one
 * of the server's system users. The panel keeps the desired programs; the agent writes them.
 */
import { z } from 'zod';
import { managedState } from '../../resources/managedState';
import { defineResource } from '../../resources/define';
import { op } from '../../resources/agent/opDef';
import { supervisorProcess } from '../../resources/agent/protocol';
import { systemUserName } from '../../resources/agent/validators';
import { commandProblem, directoryProblem } from './program';

const refined =
  (check: (value: string) => string | null) => (value: string, ctx: z.RefinementCtx) => {
    const problem = check(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  };

/** The program's name: its file, its group in supervisorctl, its path in `svjobs/{name}`. */
export const programName = z
  .string()
  .trim()
  .regex(
    /^[a-z][a-z0-9_-]{0,39}$/,
    'Lower-case letters, digits, _ and -, starting with a letter (at most 40)',
  );

/** The command line supervisord runs (split like a shell would, but no shell runs it). */
export const programCommand = z
  .string()
  .trim()
  .min(1, 'Give the command to run')
  .max(1000)
  .superRefine(refined(commandProblem));

/** The working directory: an absolute path, plain characters, no `..`. */
export const programDirectory = z.string().trim().max(255).superRefine(refined(directoryProblem));

/** Who runs it: root or one of the server's system users. */
export const programUser = systemUserName.or(z.literal('root'));

export const svjobSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  command: z.string(),
  directory: z.string(),
  user: z.string(),
  /** How many copies run (`numprocs`). */
  numprocs: z.number().int(),
  autostart: z.boolean(),
  autorestart: z.boolean(),
  ...managedState,
});

export const svjobInput = z.object({
  name: programName,
  command: programCommand,
  directory: programDirectory,
  user: programUser,
  numprocs: z.coerce.number().int().min(1, 'At least 1').max(20, 'At most 20').default(1),
  autostart: z.boolean().default(true),
  autorestart: z.boolean().default(true),
});

/** A process of a program as supervisorctl shows it (the live report carries the same). */
export const svProcess = supervisorProcess;

export const svAction = z.enum(['start', 'stop', 'restart']);

/** The end of a program's output. */
export const svLog = z.object({ text: z.string(), truncated: z.boolean() });

const server = 'servers/{sid}/users/{uid}';

export const svjobs = defineResource({
  name: 'svjobs',
  label: 'Supervisor Jobs',
  parent: 'server',
  params: { name: 'name' },
  idParam: 'name',
  schema: svjobSchema,
  input: svjobInput,
  paths: { list: `svjobs/${server}`, one: `svjobs/{name}/${server}` },
  ops: {
    list: {
      guard: 'self',
      sort: ['created_at', 'name'],
      summary: "Supervisor jobs of the server; `?sync=true` compares them with the server's",
      filters: z.object({ sync: z.enum(['true', 'false']).optional() }),
    },
    create: {
      guard: 'self',
      summary:
        'Add a supervisor job; `?rebuild=true` writes the job of that name again from the body',
      query: z.object({ rebuild: z.enum(['true', 'false']).optional() }),
    },
    delete: { guard: 'self', summary: 'Stop the job and remove its program' },
  },
  actions: {
    procs: {
      method: 'GET',
      path: `svjobs/procs/${server}`,
      guard: 'self',
      summary: "The panel's programs' processes with their state and uptime",
      response: z.object({ data: z.array(svProcess) }),
    },
    rebuild: {
      method: 'GET',
      path: `svjobs/rebuild/${server}`,
      guard: 'self',
      summary: 'Write every job of the server again from the panel',
      changesState: true,
      response: z.object({
        rebuilt: z.number().int(),
        failed: z.number().int(),
        /** Left for the server to take when it is back (offline now). */
        waiting: z.number().int(),
      }),
    },
    handle: {
      method: 'GET',
      path: `svjobs/handle/${server}`,
      guard: 'self',
      summary: 'Start, stop or restart the processes of a job',
      query: z.object({ name: programName, action: svAction }),
      response: z.object({ data: z.array(svProcess) }),
    },
    logs: {
      method: 'GET',
      path: `svjobs/logs/${server}`,
      guard: 'self',
      summary: "The end of a job's output (its first process, or `?process=`)",
      query: z.object({
        name: programName,
        process: z.coerce.number().int().min(0).max(19).optional(),
      }),
      response: svLog,
    },
  },
  example: {
    name: 'worker',
    command: '/bin/sleep 3600',
    directory: '/tmp',
    user: 'root',
    numprocs: 1,
    autostart: true,
    autorestart: true,
  },
  ui: {
    listFields: ['name', 'command', 'user', 'numprocs', 'status'],
    formFields: ['name', 'command', 'directory', 'user', 'numprocs', 'autostart', 'autorestart'],
    widgets: {
      user: {
        kind: 'reference',
        resource: 'sysusers',
        optionText: 'user_name',
        optionValue: 'user_name',
        extra: [{ label: 'root', value: 'root' }],
      },
      command: { kind: 'code' },
    },
    labels: {
      name: 'Name',
      command: 'Command',
      directory: 'Directory',
      user: 'Run as',
      numprocs: 'Processes',
      autostart: 'Start with supervisor',
      autorestart: 'Restart when it exits',
    },
    help: {
      name: 'Lower-case letters, digits, _ and -; the program is stackdeck-<name>',
      command: 'The program and its arguments; no shell runs it (use bash -c "..." for one)',
      directory: 'Where it runs, an absolute path',
      user: "root, or one of the server's system users",
      numprocs: 'How many copies run side by side (1 to 20)',
    },
    recordRepresentation: 'name',
  },
});

export const resources = { svjobs };

const program = svjobInput.extend({ numprocs: z.number().int().min(1).max(20) });

export const ops = {
  /** Writes the program's file, has supervisord take it, and waits for it to run (or fail). */
  'supervisor.set': op(program, z.object({ state: z.string() }), 60_000),
  /** Stops the program and removes its file; one already gone is no error. */
  'supervisor.remove': op(
    z.object({ name: programName }),
    z.object({ removed: z.boolean() }),
    60_000,
  ),
  /** The processes of the panel's programs. */
  'supervisor.status': op(z.object({}), z.array(svProcess)),
  /** The panel's programs as their files on the server say (for the read-back). */
  'supervisor.list': op(
    z.object({}),
    // As found: a hand-edited file reads back as it is, for the drift to show.
    z.array(
      z.object({
        name: z.string(),
        command: z.string().optional(),
        directory: z.string().optional(),
        user: z.string().optional(),
        numprocs: z.number().optional(),
        autostart: z.boolean().optional(),
        autorestart: z.boolean().optional(),
      }),
    ),
  ),
  'supervisor.control': op(
    z.object({ name: programName, action: svAction }),
    z.array(svProcess),
    90_000,
  ),
  'supervisor.log': op(
    z.object({ name: programName, process: z.number().int().min(0).max(19) }),
    svLog,
  ),
};
