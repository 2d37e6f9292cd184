import { useGetList } from 'ra-core';

/** How many apps the server has (undefined while loading): the entry rule between pages. */
export function useAppCount(sid: number): number | undefined {
  const { total, isPending } = useGetList('webstacks', {
    pagination: { page: 1, perPage: 1 },
    meta: { sid },
  });
  return isPending ? undefined : (total ?? 0);
}
