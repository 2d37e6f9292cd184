/** The spec's addresses of the supervisor pages. */
export const svPaths = {
  list: (sid: number | string) => `/supervisor-jobs/${sid}`,
  create: (sid: number | string) => `/create-supervisor-job/${sid}`,
};
