import { createProviders } from '../dataProvider';

/** The app's single dataProvider, authProvider and session store. */
export const { dataProvider, authProvider, sessions } = createProviders();
