import { describe, expect, it } from 'vitest';
import {
  commandProblem,
  directoryProblem,
  parseProgram,
  parseStatus,
  renderProgram,
} from '../../features/supervisor/program';

const program = {
  name: 'web',
  command: 'node server.js --greeting "50% off"',
  directory: '/home/alice/app',
  user: 'alice',
  numprocs: 2,
  autostart: true,
  autorestart: false,
};

describe('supervisor program files', () => {
  it('escape % for supervisor, and read back as written', () => {
    const text = renderProgram(program, '/home/alice');
    // Through the limits wrapper; the job's own command reads back as the user wrote it.
    expect(text).toContain(
      'command=/usr/local/lib/stackdeck/run-limited -- node server.js --greeting "50%% off"\n',
    );
    expect(text).toContain('process_name=%(program_name)s_%(process_num)02d\n');
    expect(text).toContain('environment=HOME="/home/alice",USER="alice",LOGNAME="alice"\n');
    expect(parseProgram('web', text)).toEqual(program);
  });

  it('refuse what supervisor would read as another key or a comment', () => {
    expect(commandProblem('/bin/sleep 60')).toBeNull();
    expect(commandProblem('a\nautostart=false')).toBe('The command must be one line');
    expect(commandProblem('echo a ; echo b')).toMatch(/comment/);
    expect(commandProblem('echo a #b')).toMatch(/comment/);
    expect(commandProblem('echo a#b;c')).toBeNull();
    expect(directoryProblem('/srv/app')).toBeNull();
    expect(directoryProblem('srv')).toMatch(/absolute/);
    expect(directoryProblem('/srv/../etc')).toMatch(/\.\./);
    expect(directoryProblem('/srv/a b')).toMatch(/only/);
  });

  it("read supervisorctl status: the panel's programs only, with pid and uptime", () => {
    const status = [
      'stackdeck-web:stackdeck-web_00     RUNNING   pid 4321, uptime 1 day, 2:03:04',
      'stackdeck-web:stackdeck-web_01     FATAL     Exited too quickly (process log may have details)',
      'stackdeck-q:stackdeck-q_00         STOPPED   Nov 24 07:00 AM',
      'admins-own                         RUNNING   pid 99, uptime 0:00:05',
    ].join('\n');
    expect(parseStatus(status)).toEqual([
      {
        name: 'web',
        process: 'web_00',
        state: 'RUNNING',
        pid: 4321,
        uptime: 93_784,
        description: '',
      },
      {
        name: 'web',
        process: 'web_01',
        state: 'FATAL',
        pid: null,
        uptime: null,
        description: 'Exited too quickly (process log may have details)',
      },
      {
        name: 'q',
        process: 'q_00',
        state: 'STOPPED',
        pid: null,
        uptime: null,
        description: 'Nov 24 07:00 AM',
      },
    ]);
  });
});
