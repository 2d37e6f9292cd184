import { Stack, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { type RaRecord, useListContext } from 'ra-core';
import { MAX_IMAGE_IDS, type UserImage } from '../../../features/admin-accounts/api';
import { UserAvatar } from '../../generic/ProfileCard';
import { useStackdeckData } from '../../hooks';

/**
 * The ids whose photos one `admin/user-images` call brings for this row: its page's rows in
 * groups of the call's bound. Every row of a group names the same query, so react-query asks
 * once for the group (one call for a page of 25), never once a row.
 */
export function photoGroupOf(pageIds: readonly number[], id: number): number[] {
  const at = pageIds.indexOf(id);
  if (at < 0) return [id];
  const start = at - (at % MAX_IMAGE_IDS);
  return pageIds.slice(start, start + MAX_IMAGE_IDS);
}

/** A row's photo (its initials without one, or when the photos cannot be read) and its name. */
export function UserNameCell({ record }: { record: RaRecord }) {
  const dataProvider = useStackdeckData();
  const { data: rows } = useListContext();
  const pageIds = (rows ?? []).map((row) => Number(row.id));
  const group = photoGroupOf(pageIds, Number(record.id));
  const photos = useQuery({
    queryKey: ['admin-accounts', 'user-images', group.join(',')],
    queryFn: ({ signal }) =>
      dataProvider.action<{ data: UserImage[] }>('admin-accounts', 'userImages', {
        query: { ids: group.join(',') },
        signal,
      }),
    // A photo changes rarely; paging back and forth reads the cache.
    staleTime: 60_000,
    retry: false,
  });
  const name = String(record.user_name ?? '');
  const photo = photos.data?.data.find((image) => image.user_id === Number(record.id))?.data;
  return (
    <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
      <UserAvatar name={name} photo={photo} size="small" beside />
      <Typography variant="body2">{name}</Typography>
    </Stack>
  );
}
