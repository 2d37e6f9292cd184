import type { ComponentType, ReactNode } from 'react';
import { Box, Card, CardContent, Divider, Stack, Typography } from '@mui/material';

interface SectionCardProps {
  title: string;
  subtitle?: ReactNode;
  icon?: ComponentType<{ fontSize?: 'small'; color?: 'primary' }>;
  /** Shown at the right of the title: a status chip, a button. */
  aside?: ReactNode;
  children: ReactNode;
  /** id of the heading, so the section is a labelled landmark. */
  id: string;
}

/** One titled card of a settings page; a `section` labelled by its heading. */
export function SectionCard({
  title,
  subtitle,
  icon: Icon,
  aside,
  children,
  id,
}: SectionCardProps) {
  return (
    <Card component="section" aria-labelledby={id} variant="outlined" sx={{ height: '100%' }}>
      <Stack
        direction="row"
        spacing={1.5}
        sx={{ px: 3, pt: 2.5, pb: 2, alignItems: 'flex-start', justifyContent: 'space-between' }}
      >
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'flex-start', minWidth: 0 }}>
          {Icon ? (
            <Box sx={{ mt: 0.25 }}>
              <Icon fontSize="small" color="primary" />
            </Box>
          ) : null}
          <Box sx={{ minWidth: 0 }}>
            <Typography id={id} variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
              {title}
            </Typography>
            {subtitle ? (
              <Typography variant="body2" color="text.secondary">
                {subtitle}
              </Typography>
            ) : null}
          </Box>
        </Stack>
        {aside}
      </Stack>
      <Divider />
      <CardContent sx={{ p: 3, '&:last-child': { pb: 3 } }}>{children}</CardContent>
    </Card>
  );
}
