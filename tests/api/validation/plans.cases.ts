import type { Case } from '../validation.test';

/** A seeded main package (Basic). */
const basic = async () => ({ id: 3 });

/** Bad input on packages: money in whole minor units, known currencies, limits or none. */
export const cases: Case[] = [
  {
    route: 'GET /api/v1/admin/bizplans',
    as: 'admin',
    query: '?kind=bundle&sort=secret',
    errors: { kind: /./, sort: /./ },
  },
  {
    route: 'POST /api/v1/admin/bizplans',
    as: 'admin',
    body: {
      name: '',
      monthly_price: 9.99,
      annual_price: -100,
      currency: 'dollars',
      max_servers: -1,
    },
    errors: {
      name: 'Give the package a name',
      monthly_price: 'Whole minor units (cents): 12.00 is 1200',
      annual_price: 'Not below zero',
      currency: /currency/,
      max_servers: 'Not below zero',
    },
  },
  {
    route: 'PATCH /api/v1/admin/bizplans/:id',
    as: 'admin',
    body: { monthly_price: '12.00', max_webapps: 2.5, active: 'yes' },
    errors: { monthly_price: /minor units/, max_webapps: /whole number/i, active: /./ },
    params: basic,
  },
];
