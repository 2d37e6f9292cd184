import { useAuthProvider, useDataProvider } from 'ra-core';
import type { StackdeckAuthProvider, StackdeckDataProvider } from '../dataProvider';

/**
 * The dataProvider with Stackdeck's `action()`, still wrapped by react-admin so a 401 or 403
 * from any call goes through authProvider.checkError (session expiry, 403 page).
 */
export const useStackdeckData = () => useDataProvider<StackdeckDataProvider>();

export const useStackdeckAuth = () => useAuthProvider() as StackdeckAuthProvider;
