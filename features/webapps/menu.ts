import AppsOutlined from '@mui/icons-material/AppsOutlined';
import ArrowBack from '@mui/icons-material/ArrowBack';
import CachedOutlined from '@mui/icons-material/CachedOutlined';
import PublicOutlined from '@mui/icons-material/PublicOutlined';
import SettingsOutlined from '@mui/icons-material/SettingsOutlined';
import SubdirectoryArrowRight from '@mui/icons-material/SubdirectoryArrowRight';
import SummarizeOutlined from '@mui/icons-material/SummarizeOutlined';
import type { MenuDeclaration } from '../../src/shell/menuTypes';

// Entries in more than one menu share their key and words.
const webApplications = {
  key: 'webApplications',
  label: { en: 'Web Apps', de: 'Web-Apps', es: 'Aplicaciones web', it: 'App web' },
};
const accountSummary = {
  key: 'accountSummary',
  label: {
    en: 'App Summary',
    de: 'App-Übersicht',
    es: 'Resumen de la aplicación',
    it: 'Riepilogo app',
  },
};
const domains = {
  key: 'domains',
  label: { en: 'Domains', de: 'Domains', es: 'Dominios', it: 'Domini' },
};
const subDomains = {
  key: 'subDomains',
  label: { en: 'Subdomains', de: 'Subdomains', es: 'Subdominios', it: 'Sottodomini' },
};
const appSettings = {
  key: 'appSettings',
  label: { en: 'Settings', de: 'Einstellungen', es: 'Ajustes', it: 'Impostazioni' },
};

/**
 * The web apps: the lists (main and server sidebars), and an app's own pages with the way back
 * to the server's apps.
 */
export const menu: MenuDeclaration[] = [
  { ...webApplications, menu: 'main', path: '/web-applications', icon: AppsOutlined, order: 70 },
  { ...webApplications, menu: 'server', path: '/web-applications', icon: AppsOutlined, order: 40 },
  {
    ...accountSummary,
    menu: 'webApp',
    path: '/account-summary',
    icon: SummarizeOutlined,
    order: 10,
  },
  { ...domains, menu: 'webApp', path: '/domains', icon: PublicOutlined, order: 60 },
  { ...subDomains, menu: 'webApp', path: '/sub-domains', icon: SubdirectoryArrowRight, order: 90 },
  { ...appSettings, menu: 'webApp', path: '/app-settings', icon: SettingsOutlined, order: 100 },
  {
    menu: 'webApp',
    key: 'cacheControl',
    path: '/cache-control',
    icon: CachedOutlined,
    order: 120,
    label: {
      en: 'Cache Control',
      de: 'Cache-Steuerung',
      es: 'Control de caché',
      it: 'Controllo cache',
    },
  },
  {
    menu: 'webApp',
    key: 'allAccounts',
    path: '/web-applications',
    icon: ArrowBack,
    order: 130,
    back: true,
    serverPage: true,
    label: {
      en: 'All web apps',
      de: 'Alle Web-Apps',
      es: 'Todas las aplicaciones web',
      it: 'Tutte le app web',
    },
  },
  {
    ...accountSummary,
    menu: 'appMini',
    path: '/account-summary',
    icon: ArrowBack,
    order: 10,
    back: true,
  },
  { ...domains, menu: 'appMini', path: '/domains', icon: PublicOutlined, order: 50 },
  { ...subDomains, menu: 'appMini', path: '/sub-domains', icon: SubdirectoryArrowRight, order: 70 },
  { ...appSettings, menu: 'appMini', path: '/app-settings', icon: SettingsOutlined, order: 90 },
];
