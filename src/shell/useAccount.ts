import { useQuery } from '@tanstack/react-query';
import { useGetOne } from 'ra-core';
import type { User } from '../../resources/user-profile';
import { useStackdeckAuth, useStackdeckData } from '../hooks';
import { sessions } from '../providers';

/**
 * Who the shell is showing: the stored session (id and admin flag, spec section 4) and the
 * user record fetched through the dataProvider, so a 401 or 403 here goes through checkError.
 */
export function useAccount() {
  const session = sessions.get();
  const auth = useStackdeckAuth();
  const { data: user } = useGetOne<User>(
    'users',
    { id: session?.userId ?? 0 },
    { enabled: session !== null, staleTime: 60_000 },
  );
  const known = user?.id === session?.userId ? user : undefined;
  return {
    session,
    user: known,
    isAdmin: session?.isAdmin ?? false,
    isStaff: Boolean(known?.is_admin_staff),
    acting: auth.isActing(),
  };
}

/** The profile photo as a data URL; a failed fetch clears it (spec section 8). */
export function useUserPhoto(user: Pick<User, 'id' | 'photo'> | undefined): string | null {
  const dataProvider = useStackdeckData();
  const { data } = useQuery({
    // The record's photo field changes with every upload, so it versions the cache.
    queryKey: ['users', 'photo', user?.id, user?.photo ?? null],
    queryFn: ({ signal }) =>
      dataProvider
        .action<{ data: string | null }>('users', 'photo', { signal })
        .then((response) => response?.data ?? null)
        .catch(() => null),
    enabled: user !== undefined,
    staleTime: 5 * 60_000,
  });
  return data ?? null;
}
