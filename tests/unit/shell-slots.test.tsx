import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { featureSlots } from '../../src/routes/slots.gen';
import { Slot, type SlotFills, SlotsProvider } from '../../src/shell/slots';

const props = { sid: 3, appId: 7, name: 'shop', disabled: false };
const Copy = ({ name }: { name: string }) => <button type="button">Clone {name}</button>;
const Move = ({ appId, disabled }: { appId: number; disabled: boolean }) => (
  <button type="button" disabled={disabled}>
    Move #{appId}
  </button>
);

describe('page slots', () => {
  it("renders each feature's fill of the place, in the features' order, with the page's props", () => {
    const fills: SlotFills[] = [{ 'app.actions': Copy }, {}, { 'app.actions': Move }];
    const html = renderToStaticMarkup(
      <SlotsProvider fills={fills}>
        <Slot id="app.actions" props={props} />
      </SlotsProvider>,
    );
    expect(html).toBe(
      '<button type="button">Clone shop</button><button type="button">Move #7</button>',
    );
  });

  it('renders nothing where no feature fills the place, or without the provider', () => {
    const fills: SlotFills[] = [{ 'server.security': () => <p>limits</p> }];
    expect(
      renderToStaticMarkup(
        <SlotsProvider fills={fills}>
          <Slot id="app.actions" props={props} />
        </SlotsProvider>,
      ),
    ).toBe('');
    expect(renderToStaticMarkup(<Slot id="app.actions" props={props} />)).toBe('');
  });

  it("the panel's pages get the features' fills: clone, installers, phpMyAdmin, fail2ban, EasyPHP, the account's security, mail, Roundcube, billing", () => {
    const filled = featureSlots.flatMap((fill) => Object.keys(fill)).sort();
    expect(filled).toEqual([
      'admin.dashboard',
      'admin.user-profile.billing',
      'app.actions',
      'app.actions',
      'app.delete.details',
      'app.php-versions',
      'dbuser.actions',
      'login-activity.before',
      'profile.cards',
      'server.apps.actions',
      'server.security',
    ]);
  });
});
