import { useCallback } from 'react';
import { useGetIdentity, useGetOne, useUpdate } from 'ra-core';
import type { User, UserUpdate } from '../../../resources/user-profile';

/**
 * The signed-in user's record (or the acted-as user's), fresh from `GET users/{uid}`, and the
 * one way every card changes it: `PUT users/{uid}` with only the fields that card owns. The
 * answer replaces the cached record, so every card shows the saved state.
 */
export function useProfile() {
  const { identity, isPending: identityPending, error: identityError } = useGetIdentity();
  const id = identity?.id == null ? undefined : Number(identity.id);
  const query = useGetOne<User>('users', { id: id ?? 0 }, { enabled: id != null });
  const [update] = useUpdate<User>();
  const user = query.data;

  const save = useCallback(
    async (data: UserUpdate): Promise<User> => {
      if (!user) throw new Error('The profile is still loading');
      const saved = await update(
        'users',
        { id: user.id, data, previousData: user },
        { mutationMode: 'pessimistic', returnPromise: true },
      );
      // With returnPromise the saved record comes back; react-admin types it as possibly void.
      return saved as User;
    },
    [update, user],
  );

  return {
    user,
    isPending: identityPending || query.isPending,
    error: identityError ?? query.error,
    refetch: query.refetch,
    save,
  };
}
