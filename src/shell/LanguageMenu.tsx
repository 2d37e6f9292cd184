import Button from '@mui/material/Button';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useLocaleState, useTranslate } from 'ra-core';
import { type ReactNode, useState } from 'react';
import { LOCALES } from '../i18n';

/**
 * The language selector (spec section 2): English, German, Spanish, Italian. The choice is
 * kept in react-admin's store, so it survives reloads.
 */
export function LanguageMenu({
  startIcon,
  compact = false,
}: {
  startIcon?: ReactNode;
  compact?: boolean;
}) {
  const translate = useTranslate();
  const [locale, setLocale] = useLocaleState();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const current = LOCALES.find((entry) => entry.locale === locale) ?? LOCALES[0];
  return (
    <>
      <Button
        color="inherit"
        size="small"
        startIcon={startIcon}
        onClick={(event) => setAnchor(event.currentTarget)}
        aria-label={`${translate('shell.header.language')}: ${current.name}`}
        aria-haspopup="menu"
        aria-expanded={anchor !== null}
        sx={{ color: 'text.secondary', fontWeight: 600, minWidth: 0 }}
      >
        {compact ? current.locale.toUpperCase() : current.name}
      </Button>
      <Menu
        anchorEl={anchor}
        open={anchor !== null}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      >
        {LOCALES.map((entry) => (
          <MenuItem
            key={entry.locale}
            selected={entry.locale === locale}
            lang={entry.locale}
            onClick={() => {
              setAnchor(null);
              setLocale(entry.locale);
            }}
          >
            {entry.name}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
