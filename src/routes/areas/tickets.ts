import type { RouteDef } from '../types';

/** The pages of support tickets (issue 4). */
export const ticketsRoutes: readonly RouteDef[] = [
  {
    path: '/ticket-list',
    layout: 'profile',
    access: 'user',
    title: 'Support',
    page: () => import('../../pages/support/TicketListPage'),
  },
  {
    path: '/create-ticket',
    layout: 'profile',
    access: 'user',
    title: 'Open a ticket',
    page: () => import('../../pages/support/CreateTicketPage'),
  },
  {
    path: '/ticket-response/:id',
    layout: 'profile',
    access: 'user',
    title: 'Ticket',
    page: () => import('../../pages/support/TicketResponsePage'),
  },
];
