import { describe, expect, it } from 'vitest';
import {
  WORDPRESS_MENU_SWITCH_MS,
  firstDomain,
  isWordPress,
  stackLabel,
} from '../../src/shell/webApp';

describe('web-app facts in the layouts', () => {
  it('names stacks as the spec prints them (section 9)', () => {
    expect(stackLabel('apache/nginx')).toBe('NGINX plus Apache2');
    expect(stackLabel('nginx')).toBe('Native NGINX');
    expect(stackLabel('openlitespeed')).toBe('openlitespeed');
    expect(stackLabel(null)).toBe('');
  });

  it('takes the first domain, given as text or as a record', () => {
    expect(firstDomain({ domains: ['a.test', 'b.test'] })).toBe('a.test');
    expect(firstDomain({ domains: [{ name: 'c.test' }] })).toBe('c.test');
    expect(firstDomain({ domains: [] })).toBe('');
    expect(firstDomain(null)).toBe('');
  });

  it('switches the menu for WordPress apps after 500 ms', () => {
    expect(WORDPRESS_MENU_SWITCH_MS).toBe(500);
    expect(isWordPress({ webapp_type: 'WordPress' })).toBe(true);
    expect(isWordPress({ webapp_type: 'joomla' })).toBe(false);
    expect(isWordPress(null)).toBe(false);
  });
});
