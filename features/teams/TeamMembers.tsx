import { Chip, List, Typography } from '@mui/material';
import PersonRemoveOutlined from '@mui/icons-material/PersonRemoveOutlined';
import { useQuery } from '@tanstack/react-query';
import type { Team } from '../../resources/teams';
import { useStackdeckData } from '../../src/hooks';
import { TeamListItem } from './TeamListItem';

export type TeamMember = Team['users'][number];

const initials = (name: string) =>
  name
    .split(/\s+/)
    .map((part) => part[0] ?? '')
    .join('')
    .slice(0, 2)
    .toUpperCase();

/** Photos of the team's users, by user id (`GET team-user-images/{teamId}/users/{uid}`). */
function useTeamPhotos(teamId: number) {
  const dataProvider = useStackdeckData();
  return useQuery({
    queryKey: ['teams', 'photos', teamId],
    queryFn: async ({ signal }) => {
      const page = await dataProvider.action<{ data: { user_id: number; data: string }[] }>(
        'teams',
        'teamPhotos',
        { params: { teamId }, query: { perPage: 100 }, signal },
      );
      return new Map(page.data.map((p) => [p.user_id, p.data]));
    },
  });
}

/** The team's members with their photos; the owner may remove anyone but themselves. */
export function TeamMembers({
  team,
  onRemove,
}: {
  team: Team;
  onRemove: (member: TeamMember) => void;
}) {
  const { data: photos } = useTeamPhotos(team.id);
  return (
    <>
      <Typography variant="subtitle2" component="h3" gutterBottom>
        Members ({team.users.length})
      </Typography>
      <List dense aria-label={`Members of ${team.name}`}>
        {team.users.map((user) => (
          <TeamListItem
            key={user.id}
            action={
              team.is_owner && !user.is_owner
                ? {
                    tooltip: 'Remove from the team',
                    label: `Remove ${user.user_name}`,
                    icon: <PersonRemoveOutlined fontSize="small" />,
                    onClick: () => onRemove(user),
                  }
                : null
            }
            avatar={{
              src: photos?.get(user.id),
              alt: user.user_name,
              content: initials(user.user_name),
            }}
            primary={
              <>
                {user.user_name}{' '}
                {user.is_owner ? <Chip label="Owner" size="small" sx={{ ml: 0.5 }} /> : null}
              </>
            }
            secondary={user.email}
          />
        ))}
      </List>
    </>
  );
}
