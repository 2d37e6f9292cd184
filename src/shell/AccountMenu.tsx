import Logout from '@mui/icons-material/Logout';
import PersonOutline from '@mui/icons-material/PersonOutline';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import Chip from '@mui/material/Chip';
import Divider from '@mui/material/Divider';
import ListItemIcon from '@mui/material/ListItemIcon';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Typography from '@mui/material/Typography';
import { useLogout, useTranslate } from 'ra-core';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { User } from '../../resources/user-profile';
import { planLabel } from './plan';
import { VISUALLY_HIDDEN } from '../generic/visuallyHidden';

interface AccountMenuProps {
  user: User | undefined;
  isAdmin: boolean;
  photo: string | null;
}

const initials = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]?.toUpperCase())
    .join('') || '?';

/** Avatar, account name and plan; opens My Profile and Log out (the shortcuts: Header). */
export function AccountMenu({ user, isAdmin, photo }: AccountMenuProps) {
  const translate = useTranslate();
  const logout = useLogout();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const name = user?.user_name ?? '';
  const plan = planLabel(user, isAdmin);
  const planText = plan ? translate(`shell.plans.${plan}`, { _: plan }) : '';
  const close = () => setAnchor(null);
  return (
    <>
      <ButtonBase
        onClick={(event) => setAnchor(event.currentTarget)}
        aria-haspopup="menu"
        aria-expanded={anchor !== null}
        sx={{
          borderRadius: 6,
          pl: 0.5,
          pr: { xs: 0.5, sm: 1.5 },
          py: 0.5,
          gap: 1.25,
          '&:hover': { bgcolor: 'action.hover' },
        }}
      >
        <Avatar
          src={photo ?? undefined}
          alt=""
          sx={{ width: 34, height: 34, bgcolor: 'primary.main', fontSize: 14 }}
        >
          {initials(name)}
        </Avatar>
        <Box sx={{ display: { xs: 'none', sm: 'block' }, textAlign: 'left', lineHeight: 1.2 }}>
          <Typography variant="body2" sx={{ fontWeight: 650 }} data-testid="account-name" noWrap>
            {name}
          </Typography>
          <Typography variant="caption" color="text.secondary" data-testid="plan-name">
            {planText}
          </Typography>
        </Box>
        {/* Named by what it shows (WCAG 2.5.3: say what you see), then by what it opens. */}
        <Box component="span" sx={VISUALLY_HIDDEN}>
          , {translate('shell.header.account')}
        </Box>
      </ButtonBase>
      <Menu
        anchorEl={anchor}
        open={anchor !== null}
        onClose={close}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ paper: { sx: { minWidth: 240, mt: 1 } } }}
      >
        <Box sx={{ px: 2, py: 1.25 }}>
          <Typography sx={{ fontWeight: 650 }}>{name}</Typography>
          <Typography variant="body2" color="text.secondary" noWrap>
            {user?.email}
          </Typography>
          {planText && (
            <Chip
              size="small"
              label={planText}
              color={isAdmin ? 'secondary' : 'default'}
              sx={{ mt: 1 }}
            />
          )}
        </Box>
        <Divider />
        <MenuItem component={Link} to="/my-profile" onClick={close}>
          <ListItemIcon>
            <PersonOutline fontSize="small" />
          </ListItemIcon>
          {translate('shell.menu.myProfile')}
        </MenuItem>
        <MenuItem
          onClick={() => {
            close();
            void logout();
          }}
        >
          <ListItemIcon>
            <Logout fontSize="small" />
          </ListItemIcon>
          {translate('shell.header.logout')}
        </MenuItem>
      </Menu>
    </>
  );
}
