import { useState } from 'react';
import {
  Autocomplete,
  Box,
  Checkbox,
  Chip,
  FormControlLabel,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useGetList } from 'ra-core';
import type { Server } from '../../resources/servers';

interface AdminUser {
  id: number;
  email: string;
}

/** The servers a run names: any user's, picked user by user; the picks are kept across users. */
export function ServerChooser({
  chosen,
  onChange,
}: {
  chosen: Map<number, string>;
  onChange: (next: Map<number, string>) => void;
}) {
  const [search, setSearch] = useState('');
  const [user, setUser] = useState<AdminUser | null>(null);
  const users = useGetList<AdminUser>('admin-users', {
    filter: search ? { q: search } : {},
    pagination: { page: 1, perPage: 20 },
  });
  const servers = useGetList<Server>(
    'servers',
    { pagination: { page: 1, perPage: 100 }, meta: { uid: user?.id } },
    { enabled: user !== null },
  );
  const toggle = (server: Server) => {
    const next = new Map(chosen);
    if (next.has(server.id)) next.delete(server.id);
    else next.set(server.id, server.name);
    onChange(next);
  };
  return (
    <Box>
      <Autocomplete
        options={users.data ?? []}
        getOptionLabel={(u) => u.email}
        isOptionEqualToValue={(a, b) => a.id === b.id}
        value={user}
        onChange={(_, value) => setUser(value)}
        onInputChange={(_, value) => setSearch(value)}
        filterOptions={(x) => x}
        renderInput={(params) => <TextField {...params} label="Servers of the user" size="small" />}
        sx={{ maxWidth: 420, mb: 1 }}
      />
      {user && servers.data?.length === 0 && (
        <Typography variant="body2" color="text.secondary">
          {user.email} has no server.
        </Typography>
      )}
      <Stack>
        {(servers.data ?? []).map((server) => (
          <FormControlLabel
            key={server.id}
            control={<Checkbox checked={chosen.has(server.id)} onChange={() => toggle(server)} />}
            label={`${server.name}${server.connected ? '' : ' (offline)'}`}
          />
        ))}
      </Stack>
      <Stack
        direction="row"
        spacing={1}
        sx={{ flexWrap: 'wrap', mt: 1 }}
        role="group"
        aria-label="Chosen servers"
      >
        {[...chosen].map(([id, name]) => (
          <Chip
            key={id}
            label={name}
            onDelete={() => {
              const next = new Map(chosen);
              next.delete(id);
              onChange(next);
            }}
          />
        ))}
      </Stack>
    </Box>
  );
}
