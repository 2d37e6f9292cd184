import type { ComponentType, ReactNode } from 'react';
import { Box, Typography } from '@mui/material';
import InboxOutlined from '@mui/icons-material/InboxOutlined';

export interface EmptyStateProps {
  title: string;
  text?: ReactNode;
  icon?: ComponentType<{ sx?: object }>;
  /** A call to action, e.g. the button that creates the first record. */
  action?: ReactNode;
}

/** What a page shows when there is nothing yet: say so, and say what to do next. */
export function EmptyState({ title, text, icon: Icon = InboxOutlined, action }: EmptyStateProps) {
  return (
    <Box
      role="status"
      sx={{
        textAlign: 'center',
        py: { xs: 6, sm: 8 },
        px: 3,
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        gap: 1.5,
      }}
    >
      <Box
        sx={{
          width: 72,
          height: 72,
          borderRadius: '50%',
          bgcolor: 'action.hover',
          display: 'grid',
          placeItems: 'center',
          mb: 1,
        }}
      >
        <Icon sx={{ fontSize: 36, color: 'text.secondary' }} />
      </Box>
      <Typography variant="h6" component="h2">
        {title}
      </Typography>
      {text ? (
        <Typography variant="body2" color="text.secondary" sx={{ maxWidth: 440 }}>
          {text}
        </Typography>
      ) : null}
      {action ? <Box sx={{ mt: 1 }}>{action}</Box> : null}
    </Box>
  );
}
