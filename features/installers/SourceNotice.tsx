import { Alert, Button } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { useStackdeckData } from '../../src/hooks';
import { useAccount } from '../../src/shell/useAccount';
import { type App, type AppSourceStatus, releasePaths } from '../releases/api';

/** Which apps can be installed now (`GET app-sources`), shared by the menu and the pages. */
export function useAppSources() {
  const dp = useStackdeckData();
  return useQuery({
    queryKey: ['app-sources'],
    queryFn: ({ signal }) =>
      dp.action<{ data: AppSourceStatus[] }>('app-sources', 'list', { signal }),
    staleTime: 30_000,
  });
}

/**
 * Before an installer's form: why the app cannot be installed yet, in a message that stays
 * (not a toast), and for an admin the link to the release page that fixes it.
 */
export function SourceNotice({ app }: { app: App }) {
  const { data } = useAppSources();
  const { isAdmin } = useAccount();
  const status = data?.data.find((s) => s.app === app);
  if (!status || status.usable) return null;
  // The reason is the API's words (no full stop, as its other messages): a sentence here.
  const reason = status.reason ?? 'This app cannot be installed now';
  return (
    <Alert
      severity="warning"
      sx={{ mb: 2, maxWidth: 720 }}
      data-testid="source-notice"
      action={
        isAdmin ? (
          <Button component={Link} to={releasePaths.admin} color="inherit" size="small">
            Open App releases
          </Button>
        ) : undefined
      }
    >
      {/[.!?]$/.test(reason) ? reason : `${reason}.`}
      {isAdmin ? null : ' Ask your administrator.'}
    </Alert>
  );
}
