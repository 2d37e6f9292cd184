import Button from '@mui/material/Button';
import { useLocaleState, useTranslate } from 'ra-core';
import { type ReactNode, Suspense, lazy, useState } from 'react';
import { LOCALES } from '../i18n';

// MUI's menu (popover, modal, transitions) arrives on the first click: /login stays light.
const LanguageChoices = lazy(() => import('./LanguageChoices'));

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
      {anchor !== null && (
        <Suspense fallback={null}>
          <LanguageChoices
            anchor={anchor}
            locale={locale}
            onClose={() => setAnchor(null)}
            onChoose={(chosen) => {
              setAnchor(null);
              setLocale(chosen);
            }}
          />
        </Suspense>
      )}
    </>
  );
}
