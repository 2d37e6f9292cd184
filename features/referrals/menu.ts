import CardGiftcardOutlined from '@mui/icons-material/CardGiftcardOutlined';
import type { MenuDeclaration } from '../../src/shell/menuTypes';

/** Referrals: the user's link and the admin's payouts. */
export const menu: MenuDeclaration[] = [
  {
    menu: 'profile',
    key: 'referAFriend',
    path: '/refer-a-friend',
    icon: CardGiftcardOutlined,
    order: 50,
    label: {
      en: 'Refer a Friend',
      de: 'Freunde werben',
      es: 'Recomendar a un amigo',
      it: 'Invita un amico',
    },
  },
  {
    menu: 'admin',
    key: 'referrals',
    path: '/admin/referrals',
    icon: CardGiftcardOutlined,
    order: 90,
    label: { en: 'Referrals', de: 'Empfehlungen', es: 'Referidos', it: 'Referral' },
  },
];
