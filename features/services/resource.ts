import { z } from 'zod';
import { noArgs, op } from '../../resources/agent/opDef';
import { serviceAction, serviceName } from '../../resources/agent/validators';
import { defineResource } from '../../resources/define';

export const serviceStatusSchema = z.object({
  name: serviceName,
  /** The init units behind it (mail is postfix and dovecot; php-fpm carries its version). */
  units: z.array(z.string()),
  installed: z.boolean(),
  running: z.boolean(),
});
export type ServiceStatus = z.infer<typeof serviceStatusSchema>;

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

export const resources = { services };

export const ops = {
  'services.list': op(noArgs, z.array(serviceStatusSchema)),
  'services.control': op(
    z.object({ service: serviceName, action: serviceAction }),
    serviceStatusSchema,
    120_000,
  ),
};
