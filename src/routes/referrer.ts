/**
 * The referrer uuid of a visit: `/register/{uuid}` carries it, and any protected page opened
 * without a token remembers the uuid of its route so registering still credits the referrer.
 */
const KEY = 'stackdeck.referrer';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isUuid = (value: unknown): value is string =>
  typeof value === 'string' && UUID.test(value);

/** The first route parameter that is a uuid (`/dashboard/:uuid`), if any. */
export function uuidFromParams(params: Readonly<Record<string, string | undefined>>) {
  return Object.values(params).find(isUuid);
}

export function rememberReferrer(uuid: string, storage: Storage = window.sessionStorage) {
  if (isUuid(uuid)) storage.setItem(KEY, uuid);
}

export function recallReferrer(storage: Storage = window.sessionStorage): string | undefined {
  const value = storage.getItem(KEY);
  return isUuid(value) ? value : undefined;
}
