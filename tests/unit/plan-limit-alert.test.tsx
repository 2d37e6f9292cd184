import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import { HttpError } from 'ra-core';
import { describe, expect, it } from 'vitest';
import { PlanLimitAlert, planLimitOf } from '../../src/generic/PlanLimitAlert';

const words = 'Your Free plan allows 1 server. Upgrade to Basic or Pro to add more.';
const refusal = (extra: object = {}) =>
  new HttpError(words, 403, {
    statusCode: 403,
    message: words,
    code: 'plan_limit',
    upgrade: '/pricing',
    upgrade_to: ['Basic', 'Pro'],
    ...extra,
  });

describe('a plan limit in the browser', () => {
  it('is recognised by its code, and only so', () => {
    expect(planLimitOf(refusal())).toEqual({ message: words, upgrade: '/pricing' });
    expect(planLimitOf(refusal({ upgrade_to: [] }))).toEqual({ message: words, upgrade: null });
    expect(planLimitOf(new HttpError('Forbidden', 403, { message: 'Forbidden' }))).toBeNull();
    expect(planLimitOf(new Error('x'))).toBeNull();
    expect(planLimitOf(null)).toBeNull();
  });

  it('shows the words and an Upgrade link to /pricing', () => {
    const html = renderToStaticMarkup(
      <MemoryRouter>
        <PlanLimitAlert limit={planLimitOf(refusal())!} />
      </MemoryRouter>,
    );
    expect(html).toContain('role="alert"');
    expect(html).toContain(words);
    expect(html).toMatch(/<a [^>]*href="\/pricing"[^>]*>Upgrade<\/a>/);
    const none = renderToStaticMarkup(
      <MemoryRouter>
        <PlanLimitAlert limit={planLimitOf(refusal({ upgrade_to: [] }))!} />
      </MemoryRouter>,
    );
    expect(none).not.toContain('Upgrade</a>');
  });
});
