import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { LOCALES } from '../i18n';

/** The open language menu of LanguageMenu, loaded on its first click. */
export default function LanguageChoices({
  anchor,
  locale,
  onClose,
  onChoose,
}: {
  anchor: HTMLElement;
  locale: string;
  onClose: () => void;
  onChoose: (locale: string) => void;
}) {
  return (
    <Menu
      anchorEl={anchor}
      open
      onClose={onClose}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
      transformOrigin={{ vertical: 'top', horizontal: 'right' }}
    >
      {LOCALES.map((entry) => (
        <MenuItem
          key={entry.locale}
          selected={entry.locale === locale}
          lang={entry.locale}
          onClick={() => onChoose(entry.locale)}
        >
          {entry.name}
        </MenuItem>
      ))}
    </Menu>
  );
}
