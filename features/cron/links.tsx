/** The spec's addresses of the cron pages; a job is named by `?job=` on the server's path. */
export const cronPaths = {
  list: (sid: number | string) => `/cron-jobs/${sid}`,
  create: (sid: number | string) => `/create-cron-job/${sid}`,
  edit: (sid: number | string, job: number | string) => `/edit-cron-job/${sid}?job=${job}`,
};

/** The job id of /edit-cron-job/{id}?job=N, or null when it names none. */
export function jobIdOf(search: string): number | null {
  const value = new URLSearchParams(search).get('job');
  if (!value || !/^\d+$/.test(value)) return null;
  const id = Number(value);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** How the panel names a job in dialogs and messages. */
export function jobName(job: { id: unknown; label?: unknown; sys_user?: unknown }): string {
  const label = typeof job.label === 'string' ? job.label.trim() : '';
  return label ? `cron job "${label}"` : `cron job #${String(job.id)}`;
}
