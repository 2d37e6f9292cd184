import type { RouteDef } from '../../src/routes/types';

/** The pages of support tickets (issue 4). */
export const routes: readonly RouteDef[] = [
  {
    path: '/ticket-list',
    layout: 'profile',
    access: 'user',
    title: 'Support',
    page: () => import('./TicketListPage'),
  },
  {
    path: '/create-ticket',
    layout: 'profile',
    access: 'user',
    title: 'Open a ticket',
    page: () => import('./CreateTicketPage'),
  },
  {
    path: '/ticket-response/:id',
    layout: 'profile',
    access: 'user',
    title: 'Ticket',
    page: () => import('./TicketResponsePage'),
  },
];
