import { users } from '../../../resources/users';
import { defineHandlers } from '../../http/handlers';
import { profileActions, profileHandlers } from './profile';
import { signinActions } from './signin';
import { signupActions } from './signup';

export const userHandlers = defineHandlers(users, {
  ...profileHandlers,
  actions: { ...signinActions, ...signupActions, ...profileActions },
});
