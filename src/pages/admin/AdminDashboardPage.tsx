import { Alert, Box, Card, CardActionArea, CardContent, Grid, Typography } from '@mui/material';
import AdminPanelSettingsOutlined from '@mui/icons-material/AdminPanelSettingsOutlined';
import CloudDoneOutlined from '@mui/icons-material/CloudDoneOutlined';
import DnsOutlined from '@mui/icons-material/DnsOutlined';
import MailOutline from '@mui/icons-material/MailOutline';
import PeopleOutline from '@mui/icons-material/PeopleOutline';
import PersonAddAltOutlined from '@mui/icons-material/PersonAddAltOutlined';
import VerifiedUserOutlined from '@mui/icons-material/VerifiedUserOutlined';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import type { z } from 'zod';
import type { adminDashboardSchema } from '../../../resources/admin-users';
import { PageHeader } from '../../generic/PageHeader';
import { errorMessage } from '../../generic/serverErrors';
import { useStackdeckData } from '../../hooks';
import { Slot } from '../../shell/slots';
import { StatCard } from './StatCard';

type Stats = z.infer<typeof adminDashboardSchema>;

declare module '../../shell/slots' {
  interface PageSlots {
    /** Under the figures: a feature's own overview (billing: the revenue). */
    'admin.dashboard': Record<string, never>;
  }
}

/** The figures of `GET admin/dashboard`, in reading order. */
const FIGURES: {
  key: keyof Stats;
  label: string;
  icon: typeof PeopleOutline;
  color: 'primary' | 'success' | 'info' | 'secondary';
}[] = [
  { key: 'users', label: 'Users', icon: PeopleOutline, color: 'primary' },
  {
    key: 'confirmed_users',
    label: 'Confirmed users',
    icon: VerifiedUserOutlined,
    color: 'success',
  },
  { key: 'admins', label: 'Admins', icon: AdminPanelSettingsOutlined, color: 'secondary' },
  { key: 'servers', label: 'Servers', icon: DnsOutlined, color: 'info' },
  {
    key: 'connected_servers',
    label: 'Connected servers',
    icon: CloudDoneOutlined,
    color: 'success',
  },
  {
    key: 'signups_last_30_days',
    label: 'Sign-ups in the last 30 days',
    icon: PersonAddAltOutlined,
    color: 'primary',
  },
];

const SHORTCUTS = [
  {
    to: '/admin/users',
    title: 'Users',
    text: 'Find an account, check its plan, act as the user.',
    icon: PeopleOutline,
  },
  {
    to: '/admin/servers',
    title: 'Servers',
    text: 'Every server, its owner and whether it is connected.',
    icon: DnsOutlined,
  },
  {
    to: '/admin/outbox',
    title: 'Outbox',
    text: 'Every mail the panel sent, with its text.',
    icon: MailOutline,
  },
];

/** /admin/dashboard: live counts of users and servers. */
export default function AdminDashboardPage() {
  const dataProvider = useStackdeckData();
  const { data, error } = useQuery({
    queryKey: ['admin-dashboard', 'stats'],
    queryFn: ({ signal }) => dataProvider.action<Stats>('admin-dashboard', 'stats', { signal }),
  });

  return (
    <Box>
      <PageHeader title="Admin Dashboard" description="How the panel is doing, at a glance." />
      {error ? (
        <Alert severity="error" sx={{ mb: 2 }}>
          {errorMessage(error, 'The figures could not be loaded.')}
        </Alert>
      ) : null}
      <Grid container spacing={2}>
        {FIGURES.map(({ key, label, icon, color }) => (
          <Grid key={key} size={{ xs: 12, sm: 6, lg: 4 }}>
            <StatCard label={label} value={data?.[key]} icon={icon} color={color} />
          </Grid>
        ))}
      </Grid>
      <Slot id="admin.dashboard" props={{}} />
      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mt: 4, mb: 1.5 }}>
        Manage
      </Typography>
      <Grid container spacing={2}>
        {SHORTCUTS.map(({ to, title, text, icon: Icon }) => (
          <Grid key={to} size={{ xs: 12, sm: 6 }}>
            <Card variant="outlined">
              <CardActionArea component={Link} to={to}>
                <CardContent sx={{ display: 'flex', gap: 2, alignItems: 'center' }}>
                  <Icon color="primary" />
                  <Box>
                    <Typography sx={{ fontWeight: 600 }}>{title}</Typography>
                    <Typography variant="body2" color="text.secondary">
                      {text}
                    </Typography>
                  </Box>
                </CardContent>
              </CardActionArea>
            </Card>
          </Grid>
        ))}
      </Grid>
    </Box>
  );
}
