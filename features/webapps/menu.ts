import AppsOutlined from '@mui/icons-material/AppsOutlined';
import ArrowBack from '@mui/icons-material/ArrowBack';
import CachedOutlined from '@mui/icons-material/CachedOutlined';
import PublicOutlined from '@mui/icons-material/PublicOutlined';
import SettingsOutlined from '@mui/icons-material/SettingsOutlined';
import SubdirectoryArrowRight from '@mui/icons-material/SubdirectoryArrowRight';
import SummarizeOutlined from '@mui/icons-material/SummarizeOutlined';
import type { MenuDeclaration } from '../../src/shell/menuTypes';

/**
 * The web apps: the lists (main and server sidebars), and an app's own pages with the way back
 * to the server's apps.
 */
export const menu: MenuDeclaration[] = [
  {
    menu: 'main',
    key: 'webApplications',
    path: '/web-applications',
    icon: AppsOutlined,
    order: 70,
    label: { en: 'Web Apps', de: 'Web-Apps', es: 'Aplicaciones web', it: 'App web' },
  },
  {
    menu: 'server',
    key: 'webApplications',
    path: '/web-applications',
    icon: AppsOutlined,
    order: 40,
    label: { en: 'Web Apps', de: 'Web-Apps', es: 'Aplicaciones web', it: 'App web' },
  },
  {
    menu: 'webApp',
    key: 'accountSummary',
    path: '/account-summary',
    icon: SummarizeOutlined,
    order: 10,
    label: {
      en: 'App Summary',
      de: 'App-Übersicht',
      es: 'Resumen de la aplicación',
      it: 'Riepilogo app',
    },
  },
  {
    menu: 'webApp',
    key: 'domains',
    path: '/domains',
    icon: PublicOutlined,
    order: 60,
    label: { en: 'Domains', de: 'Domains', es: 'Dominios', it: 'Domini' },
  },
  {
    menu: 'webApp',
    key: 'subDomains',
    path: '/sub-domains',
    icon: SubdirectoryArrowRight,
    order: 90,
    label: { en: 'Subdomains', de: 'Subdomains', es: 'Subdominios', it: 'Sottodomini' },
  },
  {
    menu: 'webApp',
    key: 'appSettings',
    path: '/app-settings',
    icon: SettingsOutlined,
    order: 100,
    label: { en: 'Settings', de: 'Einstellungen', es: 'Ajustes', it: 'Impostazioni' },
  },
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
    menu: 'appMini',
    key: 'accountSummary',
    path: '/account-summary',
    icon: ArrowBack,
    order: 10,
    back: true,
    label: {
      en: 'App Summary',
      de: 'App-Übersicht',
      es: 'Resumen de la aplicación',
      it: 'Riepilogo app',
    },
  },
  {
    menu: 'appMini',
    key: 'domains',
    path: '/domains',
    icon: PublicOutlined,
    order: 50,
    label: { en: 'Domains', de: 'Domains', es: 'Dominios', it: 'Domini' },
  },
  {
    menu: 'appMini',
    key: 'subDomains',
    path: '/sub-domains',
    icon: SubdirectoryArrowRight,
    order: 70,
    label: { en: 'Subdomains', de: 'Subdomains', es: 'Subdominios', it: 'Sottodomini' },
  },
  {
    menu: 'appMini',
    key: 'appSettings',
    path: '/app-settings',
    icon: SettingsOutlined,
    order: 90,
    label: { en: 'Settings', de: 'Einstellungen', es: 'Ajustes', it: 'Impostazioni' },
  },
];
