import { renderToStaticMarkup } from 'react-dom/server';
import { Form, TestMemoryRouter } from 'ra-core';
import { describe, expect, it } from 'vitest';
import { ProfileCard, SummaryRow, UserAvatar, initials } from '../../src/generic/ProfileCard';
import { ProfileFields } from '../../src/generic/ProfileFields';

const record = {
  user_name: 'Ada Lovelace',
  email: 'ada@example.com',
  CompanyName: 'Engines Ltd',
  Addr_1: '1 Analytical Way',
  Addr_2: '',
  City: 'London',
  State: '',
  PostalCode: 'N1',
  Country: 'GB',
  TaxNum: 'GB123',
  TimeZone: 'Europe/London',
};

const fields = (props: Parameters<typeof ProfileFields>[0]) =>
  renderToStaticMarkup(
    <TestMemoryRouter>
      <Form record={record}>
        <ProfileFields {...props} />
      </Form>
    </TestMemoryRouter>,
  );

const inputs = (html: string) =>
  [...html.matchAll(/<input[^>]*>/g)].map((m) => m[0]).filter((tag) => !/type="hidden"/.test(tag));

describe('the profile fields both profile forms show', () => {
  it('the holder edits name, company, address, country, tax number and time zone, with autofill', () => {
    const html = fields({ timeZone: 'Europe/London', autofill: true });
    const tags = inputs(html);
    expect(tags.map((tag) => /name="([^"]+)"/.exec(tag)?.[1])).toEqual([
      'user_name',
      'CompanyName',
      'Addr_1',
      'Addr_2',
      'City',
      'State',
      'PostalCode',
      'Country',
      'TaxNum',
      'TimeZone',
    ]);
    expect(tags.some((tag) => /disabled/.test(tag))).toBe(false);
    expect(html).toContain('autoComplete="address-line1"');
    expect(html).toContain('value="Engines Ltd"');
    expect(html).toContain('Printed on invoices');
  });

  it("an admin's form adds the sign-in address after the name and no autofill; staff read it all disabled", () => {
    const admin = fields({
      timeZone: null,
      email: { disabled: true, helperText: 'Only that admin changes their own sign-in address' },
    });
    const names = inputs(admin).map((tag) => /name="([^"]+)"/.exec(tag)?.[1]);
    expect(names.slice(0, 3)).toEqual(['user_name', 'email', 'CompanyName']);
    expect(admin).not.toContain('autoComplete="address-line1"');
    expect(inputs(admin).filter((tag) => /disabled/.test(tag))).toHaveLength(1);
    expect(admin).toContain('Only that admin changes their own sign-in address');

    const staff = fields({ timeZone: null, readOnly: true, email: { disabled: false } });
    expect(inputs(staff).every((tag) => /disabled/.test(tag))).toBe(true);
  });
});

describe('the profile card both profile pages show', () => {
  it('shows the photo named for its holder, or the initials without one', () => {
    expect(initials('ada  lovelace byron')).toBe('AL');
    expect(initials('  ')).toBe('?');
    const photo = renderToStaticMarkup(
      <UserAvatar name="Ada Lovelace" photo="data:image/png;base64,AA==" size="small" />,
    );
    expect(photo).toContain('alt="Photo of Ada Lovelace"');
    expect(photo).toContain('src="data:image/png;base64,AA=="');
    const none = renderToStaticMarkup(<UserAvatar name="Ada Lovelace" photo={null} size="small" />);
    expect(none).not.toContain('<img');
    expect(none).toContain('>AL<');
  });

  it('a region with the name, address, the page’s actions and its facts', () => {
    const html = renderToStaticMarkup(
      <ProfileCard
        label="Account"
        user={record}
        photo={null}
        avatarSize="medium"
        actions={<button type="button">Disable</button>}
      >
        <SummaryRow label="Account ID">#7</SummaryRow>
      </ProfileCard>,
    );
    expect(html).toMatch(/<section[^>]*aria-label="Account"/);
    for (const text of ['Ada Lovelace', 'ada@example.com', '>Disable</button>', 'Account ID', '#7'])
      expect(html).toContain(text);
  });
});
