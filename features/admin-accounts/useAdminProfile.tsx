import { useQuery } from '@tanstack/react-query';
import { useGetOne } from 'ra-core';
import type { User } from '../../resources/user-profile';
import { useStackdeckData } from '../../src/hooks';

/** The user an admin looks at (`GET users/{id}`, which staff may read too) and their photo. */
export function useAdminProfile(id: number) {
  const dataProvider = useStackdeckData();
  const user = useGetOne<User>('users', { id }, { enabled: id > 0, retry: false });
  const photo = useQuery({
    queryKey: ['users', 'photo', id],
    enabled: id > 0,
    queryFn: ({ signal }) =>
      dataProvider.action<{ user_id: number; data: string | null }>('users', 'photo', {
        params: { uid: id },
        signal,
      }),
  });
  return { user, photo: photo.data?.data ?? null };
}
