import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useGetList } from 'ra-core';
import type { Team, TeamPatch } from '../../resources/teams';
import { useStackdeckData } from '../../src/hooks';

/** Teams on one page of /team-manager (the API pages them). */
export const TEAMS_PER_PAGE = 10;

/** The user's teams, owned and joined: both entry-rule pages read the same first page. */
export function useTeams(page = 1) {
  return useGetList<Team>(
    'teams',
    {
      pagination: { page, perPage: TEAMS_PER_PAGE },
      sort: { field: 'created_at', order: 'ASC' },
    },
    { placeholderData: (previous) => previous },
  );
}

export interface MyInvite {
  id: string;
  team_id: number;
  team_name: string;
  invited_by: string;
  created_at: string;
  expires_at: string;
}

/** Invitations waiting for the user (addressed to their email). */
export function useMyInvites() {
  return useGetList<MyInvite>('team-invites', {
    pagination: { page: 1, perPage: 50 },
    sort: { field: 'created_at', order: 'DESC' },
  });
}

/** Everything that shows teams or servers reads again after a team changes. */
export function useTeamsRefresh() {
  const queryClient = useQueryClient();
  return useCallback(async () => {
    await Promise.all(
      ['teams', 'team-invites', 'team-servers', 'servers'].map((key) =>
        queryClient.invalidateQueries({ queryKey: [key] }),
      ),
    );
  }, [queryClient]);
}

/** `PATCH teams/{teamId}/users/{uid}`: the owner's changes, sent as they are. */
export function usePatchTeam() {
  const dataProvider = useStackdeckData();
  const refresh = useTeamsRefresh();
  return useCallback(
    async (teamId: number, patch: TeamPatch) => {
      const { data } = await dataProvider.update<Team>('teams', {
        id: teamId,
        data: patch,
        previousData: { id: teamId } as Team,
      });
      await refresh();
      return data;
    },
    [dataProvider, refresh],
  );
}
