import type { ComponentType } from 'react';
import { Box, Button, Stack, Typography } from '@mui/material';
import ArrowBack from '@mui/icons-material/ArrowBack';
import ErrorOutline from '@mui/icons-material/ErrorOutline';
import Refresh from '@mui/icons-material/Refresh';
import SearchOff from '@mui/icons-material/SearchOff';
import { Link } from 'react-router-dom';
import { errorMessage } from './serverErrors';

/** Where a record page sends the user back to: the list the record belongs to. */
export interface WayBack {
  to: string;
  label: string;
}

const statusOf = (error: unknown): number | undefined => {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' ? status : undefined;
};

/** A 404 answer, or a record missing from the list it was looked up in. */
export const isNotFound = (error: unknown) => statusOf(error) === 404;

function StateBox({
  icon: Icon,
  tone,
  title,
  text,
  back,
  onRetry,
  testId,
  inline = false,
}: {
  icon: ComponentType<{ sx?: object }>;
  tone: 'neutral' | 'error';
  title: string;
  text: string;
  back: WayBack;
  onRetry?: () => void;
  testId: string;
  inline?: boolean;
}) {
  return (
    <Box
      role={tone === 'error' ? 'alert' : 'status'}
      data-testid={testId}
      sx={{
        textAlign: 'center',
        py: inline ? 4 : { xs: 6, sm: 8 },
        px: 3,
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        gap: 1.5,
        ...(inline
          ? {}
          : { border: 1, borderColor: 'divider', borderRadius: 3, bgcolor: 'background.paper' }),
      }}
    >
      <Box
        sx={{
          width: 72,
          height: 72,
          borderRadius: '50%',
          bgcolor: tone === 'error' ? 'rgba(220,38,38,0.08)' : 'action.hover',
          display: 'grid',
          placeItems: 'center',
          mb: 1,
        }}
      >
        <Icon sx={{ fontSize: 36, color: tone === 'error' ? 'error.main' : 'text.secondary' }} />
      </Box>
      <Typography variant="h6" component={inline ? 'h2' : 'h1'}>
        {title}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ maxWidth: 440 }}>
        {text}
      </Typography>
      <Stack
        direction="row"
        spacing={1.5}
        sx={{ mt: 1, flexWrap: 'wrap', justifyContent: 'center' }}
      >
        <Button variant="contained" component={Link} to={back.to} startIcon={<ArrowBack />}>
          {back.label}
        </Button>
        {onRetry ? (
          <Button variant="outlined" onClick={onRetry} startIcon={<Refresh />}>
            Try again
          </Button>
        ) : null}
      </Stack>
    </Box>
  );
}

export interface NotFoundStateProps {
  /** What is missing, as the user calls it: "ticket", "team", "DNS zone". */
  what: string;
  back: WayBack;
  text?: string;
  /** Inside a card of a page that has its own title (no frame, an h2). */
  inline?: boolean;
}

/**
 * A record page whose record does not exist (or is not the user's: the panel answers 404 for
 * both): say so at once, in the page's layout, with the way back to its list.
 */
export function NotFoundState({ what, back, text, inline }: NotFoundStateProps) {
  return (
    <StateBox
      icon={SearchOff}
      tone="neutral"
      title={`No such ${what}`}
      text={
        text ??
        `This ${what} does not exist, or it is not shared with you. It may have been deleted.`
      }
      back={back}
      testId="not-found-state"
      inline={inline}
    />
  );
}

export interface LoadErrorProps {
  error: unknown;
  what: string;
  back: WayBack;
  onRetry?: () => void;
  inline?: boolean;
}

/**
 * A record or list that failed to load: a 404 shows the not-found state; any other failure
 * says what could not be loaded and why, with a retry and the way back.
 */
export function LoadError({ error, what, back, onRetry, inline }: LoadErrorProps) {
  if (isNotFound(error)) return <NotFoundState what={what} back={back} inline={inline} />;
  return (
    <StateBox
      icon={ErrorOutline}
      tone="error"
      title={`The ${what} could not be loaded`}
      text={errorMessage(error, 'Something went wrong. Try again in a moment.')}
      back={back}
      onRetry={onRetry}
      testId="load-error"
      inline={inline}
    />
  );
}
