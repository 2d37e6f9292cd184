import { Chip, Stack, Typography } from '@mui/material';
import Cancel from '@mui/icons-material/Cancel';
import { useMutation } from '@tanstack/react-query';
import { type RaRecord, useNotify, useRefresh } from 'ra-core';
import { Confirm } from 'ra-ui-materialui';
import { useState } from 'react';
import { errorMessage } from '../../src/generic/serverErrors';
import { useStackdeckData } from '../../src/hooks';

interface Granted {
  id: number;
  name: string;
}

/**
 * The users granted on a database, each with a remove that asks first: `?userdel=` takes the
 * user's grant on this database away and leaves the user and its other grants.
 */
export function GrantChips({ sid, database }: { sid: number; database: RaRecord }) {
  const dataProvider = useStackdeckData();
  const notify = useNotify();
  const refresh = useRefresh();
  const [asking, setAsking] = useState<Granted | null>(null);
  const users = (database.users ?? []) as Granted[];
  const name = String(database.name);
  const remove = useMutation({
    mutationFn: (user: Granted) =>
      dataProvider.action('databases', 'userdel', {
        params: { sid, dbId: database.id },
        query: { userdel: user.id },
      }),
    onSuccess: (_, user) => {
      notify(`${user.name} no longer uses ${name}`, { type: 'info' });
      refresh();
    },
    onError: (error) => notify(errorMessage(error, 'The grant stays'), { type: 'error' }),
    onSettled: () => setAsking(null),
  });
  if (users.length === 0)
    return (
      <Typography variant="body2" color="text.secondary">
        None
      </Typography>
    );
  return (
    <>
      <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap' }}>
        {users.map((user) => (
          <Chip
            key={user.id}
            size="small"
            label={user.name}
            disabled={database.status !== 'active' || remove.isPending}
            onDelete={() => setAsking(user)}
            slotProps={{ root: { 'aria-label': `${user.name} on ${name}` } }}
            // Also reached from the keyboard: Delete or Backspace on the focused chip.
            deleteIcon={<Cancel titleAccess={`Remove ${user.name} from ${name}`} />}
          />
        ))}
      </Stack>
      <Confirm
        isOpen={asking !== null}
        loading={remove.isPending}
        title={asking ? `Remove ${asking.name} from ${name}?` : ''}
        content="The user loses every privilege on this database at once; the user and its other databases stay."
        confirm="Remove"
        confirmColor="warning"
        onConfirm={() => asking && remove.mutate(asking)}
        onClose={() => setAsking(null)}
      />
    </>
  );
}
