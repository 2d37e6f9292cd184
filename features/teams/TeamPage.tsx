import { Box, Button, Card, List, ListItem, ListItemIcon, ListItemText } from '@mui/material';
import Add from '@mui/icons-material/Add';
import GroupsOutlined from '@mui/icons-material/GroupsOutlined';
import MailOutline from '@mui/icons-material/MailOutline';
import DnsOutlined from '@mui/icons-material/DnsOutlined';
import ShieldOutlined from '@mui/icons-material/ShieldOutlined';
import { Link, Navigate } from 'react-router-dom';
import { EmptyState } from '../../src/generic/EmptyState';
import { InvitesPanel } from './InvitesPanel';
import { useTeams } from './useTeams';

const POINTS = [
  {
    icon: MailOutline,
    text: 'Invite people by email. They join from the mail, even if they register only then.',
  },
  {
    icon: DnsOutlined,
    text: 'Share servers with the team: members see them on their dashboard next to their own and run them as you do.',
  },
  {
    icon: ShieldOutlined,
    text: 'Only you remove, transfer or share your servers and manage the team. A member you remove loses access at once.',
  },
];

/** /team: what teams are, and the first team; with a team already, the entry rule opens /team-manager. */
export default function TeamPage() {
  const { total, isPending, error } = useTeams();
  // An invitation link reaches /team only from /team-manager, for a user without a team; once
  // they have one, the link has served.
  if (!isPending && !error && (total ?? 0) > 0) return <Navigate to="/team-manager" replace />;

  return (
    <Box sx={{ maxWidth: 760, mx: 'auto', mt: { xs: 0, md: 4 } }}>
      <InvitesPanel />
      <Card variant="outlined">
        <EmptyState
          icon={GroupsOutlined}
          title="Work on your servers together"
          text="A team is you and the people you invite. The servers you share with the team appear on every member's dashboard."
          action={
            <Button
              component={Link}
              to="/create-team"
              variant="contained"
              size="large"
              startIcon={<Add />}
              disabled={isPending}
            >
              Create your first team
            </Button>
          }
        />
        <List sx={{ px: { xs: 2, sm: 6 }, pb: 4 }}>
          {POINTS.map(({ icon: Icon, text }) => (
            <ListItem key={text} disableGutters>
              <ListItemIcon sx={{ minWidth: 40 }}>
                <Icon color="primary" />
              </ListItemIcon>
              <ListItemText primary={text} />
            </ListItem>
          ))}
        </List>
      </Card>
    </Box>
  );
}
