import { serverFeatures } from '../features.gen';
import { panelJobs, panelSchedules } from './panelJobs';
import type { Job, ScheduleDeclaration } from './types';

/** Jobs and schedules a build adds to the declared ones (tests and benchmarks only). */
export interface ExtraJobs {
  jobs?: readonly Job[];
  schedules?: readonly ScheduleDeclaration[];
}

/**
 * Every job and built-in schedule the panel knows: its own (server/jobs/panelJobs.ts) and each
 * feature folder's (`jobs` and `schedules` of its server.ts), gathered through the generated
 * list of features, so no central list names them.
 */
export class JobRegistry {
  private readonly byName = new Map<string, Job>();
  readonly schedules: readonly ScheduleDeclaration[];

  constructor(jobs: readonly Job[], schedules: readonly ScheduleDeclaration[]) {
    for (const job of jobs) {
      if (this.byName.has(job.name)) throw new Error(`two jobs are named ${job.name}`);
      this.byName.set(job.name, job);
    }
    const names = new Set<string>();
    for (const s of schedules) {
      if (names.has(s.name)) throw new Error(`two schedules are named ${s.name}`);
      names.add(s.name);
      if (this.byName.get(s.job.name) !== s.job)
        throw new Error(`schedule ${s.name}: its job ${s.job.name} is not declared`);
    }
    this.schedules = schedules;
  }

  get jobs(): Job[] {
    return [...this.byName.values()];
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  job(name: string): Job {
    const job = this.byName.get(name);
    if (!job) throw new Error(`No job is named ${name}`);
    return job;
  }
}

export function jobRegistry(extra: ExtraJobs = {}): JobRegistry {
  return new JobRegistry(
    [...panelJobs, ...serverFeatures.flatMap((f) => f.jobs ?? []), ...(extra.jobs ?? [])],
    [
      ...panelSchedules,
      ...serverFeatures.flatMap((f) => f.schedules ?? []),
      ...(extra.schedules ?? []),
    ],
  );
}
