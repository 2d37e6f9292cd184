import { describe, expect, it } from 'vitest';
import { parseCrontab, renderCrontab } from '../../features/cron/crontab';
import { describeSchedule, scheduleProblem } from '../../features/cron/schedule';

describe('cron schedules', () => {
  it.each([
    '* * * * *',
    '*/5 * * * *',
    '0 3 * * 1-5',
    '15,45 */2 1 jan-mar sun',
    '@daily',
    '@reboot',
    '0 0 1 1 7',
  ])('accepts %s', (expr) => expect(scheduleProblem(expr)).toBeNull());

  it.each([
    ['', /Give a schedule/],
    ['* * * *', /five fields/],
    ['60 * * * *', /minute: "60"/],
    ['* 24 * * *', /hour/],
    ['* * 0 * *', /day of month/],
    ['* * * 13 *', /month/],
    ['5-1 * * * *', /backwards/],
    ['*/0 * * * *', /step/],
    ['1/5 * * * *', /needs a range/],
    ['@sometimes', /Unknown schedule/],
    ['* * * * * *', /five fields/],
  ])('refuses %j', (expr, why) => expect(scheduleProblem(expr)).toMatch(why));

  it.each([
    ['* * * * *', 'Every minute'],
    ['*/15 * * * *', 'Every 15 minutes'],
    ['7 * * * *', 'Every hour at minute 7'],
    ['30 3 * * *', 'At 03:30 every day'],
    ['0 9 * * 1-5', 'At 09:00 on Monday to Friday'],
    ['0 0 1 * *', 'At 00:00 on day 1 of the month'],
    ['0 */6 * * *', 'Every 6 hours at minute 0'],
    ['@weekly', 'Every Sunday at 00:00'],
  ])('says %s as "%s"', (expr, words) => expect(describeSchedule(expr)).toBe(words));
});

describe("the panel's block in a crontab", () => {
  const own = 'MAILTO=ops@example.com\n# my own job\n0 1 * * * /usr/local/bin/mine\n';

  it("keeps the user's own lines around it and escapes %", () => {
    const tab = parseCrontab(own);
    tab.jobs.push({ id: 7, schedule: '@daily', command: 'date +%F' });
    const text = renderCrontab(tab);
    expect(text.startsWith(own)).toBe(true);
    expect(text).toContain('# stackdeck:job 7\n@daily date +\\%F\n# END STACKDECK\n');
    const back = parseCrontab(text);
    expect(back.jobs).toEqual([{ id: 7, schedule: '@daily', command: 'date +%F' }]);
    expect(renderCrontab(back)).toBe(text);
  });

  it("runs a user's jobs through the limits wrapper as cron's SHELL, theirs set back after", () => {
    const tab = parseCrontab(`SHELL=/bin/bash\n${own}`);
    tab.jobs.push({ id: 3, schedule: '*/5 * * * *', command: 'php artisan schedule:run' });
    const text = renderCrontab(tab, { limited: true });
    expect(text).toContain(
      '# BEGIN STACKDECK: jobs of the control panel; change them there\n' +
        'SHELL=/usr/local/lib/stackdeck/run-limited\n# stackdeck:job 3\n' +
        '*/5 * * * * php artisan schedule:run\nSHELL=/bin/bash\n# END STACKDECK\n',
    );
    const back = parseCrontab(text);
    expect(back.jobs).toEqual(tab.jobs);
    expect(renderCrontab(back, { limited: true })).toBe(text);
    // cron's own default comes back when the user set none.
    expect(renderCrontab({ ...parseCrontab(own), jobs: tab.jobs }, { limited: true })).toContain(
      'schedule:run\nSHELL=/bin/sh\n# END',
    );
  });

  it('drops the block when no job is left, and the lines after it stay', () => {
    const tab = parseCrontab(own);
    tab.jobs.push({ id: 1, schedule: '* * * * *', command: 'true' });
    const text = `${renderCrontab(tab)}5 5 * * * after\n`;
    const back = parseCrontab(text);
    expect(back.after).toEqual(['5 5 * * * after']);
    back.jobs = [];
    expect(renderCrontab(back)).toBe(`${own}5 5 * * * after\n`);
  });
});
