import { z } from 'zod';
import { serviceStatusSchema } from './agent/ops';
import { serviceAction, serviceName } from './agent/validators';
import { defineResource } from './define';

/** Status and control of the server's services, live from the agent (spec `servicemgmt`). */
export const services = defineResource({
  name: 'services',
  label: 'Services',
  schema: serviceStatusSchema,
  paths: {},
  ops: {},
  actions: {
    status: {
      method: 'GET',
      path: 'servicemgmt/servers/{sid}/users/{uid}',
      guard: 'self',
      summary: 'nginx, MariaDB, PHP-FPM, supervisor, cron, sshd, FTP and mail, as they run now',
      response: z.object({ data: z.array(serviceStatusSchema) }),
    },
    control: {
      method: 'PATCH',
      path: 'servicemgmt/servers/{sid}/users/{uid}',
      guard: 'self',
      summary: 'start, stop, restart or reload one service',
      query: z.object({ action: serviceAction }),
      body: z.object({ service: serviceName }),
      response: serviceStatusSchema,
    },
  },
});
