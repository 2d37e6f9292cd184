import type { ReactNode } from 'react';
import { Avatar, IconButton, ListItem, ListItemAvatar, ListItemText, Tooltip } from '@mui/material';

/** The one thing a row of a team's list lets its owner do, as an icon button. */
export interface TeamListAction {
  tooltip: string;
  label: string;
  icon: ReactNode;
  onClick: () => void;
}

interface TeamListItemProps {
  avatar: { src?: string; alt?: string; bgcolor?: string; content: ReactNode };
  primary: ReactNode;
  secondary: ReactNode;
  action?: TeamListAction | null;
}

/** A row of a team card's lists (members, invitations, shared servers). */
export function TeamListItem({ avatar, primary, secondary, action }: TeamListItemProps) {
  return (
    <ListItem
      disableGutters
      secondaryAction={
        action ? (
          <Tooltip title={action.tooltip}>
            <IconButton edge="end" aria-label={action.label} onClick={action.onClick}>
              {action.icon}
            </IconButton>
          </Tooltip>
        ) : null
      }
    >
      <ListItemAvatar>
        <Avatar
          src={avatar.src}
          alt={avatar.alt}
          sx={{ width: 36, height: 36, ...(avatar.bgcolor ? { bgcolor: avatar.bgcolor } : {}) }}
        >
          {avatar.content}
        </Avatar>
      </ListItemAvatar>
      <ListItemText primary={primary} secondary={secondary} />
    </ListItem>
  );
}
