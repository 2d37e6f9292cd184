import { servers } from '../../../resources/servers';
import { defineHandlers } from '../../http/handlers';
import { lifecycleActions, machineActions } from './lifecycle';
import { recordHandlers } from './records';
import { transferActions } from './transfers';

export { serverActivityHandlers } from './live';

export const serverHandlers = defineHandlers(servers, {
  ...recordHandlers,
  actions: { ...lifecycleActions, ...transferActions, ...machineActions },
});
