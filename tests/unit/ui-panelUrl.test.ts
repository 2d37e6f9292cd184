import { describe, expect, it } from 'vitest';
import { panelUrlOf, panelUrlProblems } from '../../src/pages/servers/panelUrl';

describe('panelUrlOf', () => {
  it('reads the panel address from the install command', () => {
    expect(panelUrlOf('curl -fsSL http://localhost:8080/install/abcDEF_123-xyz0000 | bash')).toBe(
      'http://localhost:8080',
    );
    expect(panelUrlOf('curl -fsSL https://panel.example.com/sd/install/k | bash')).toBe(
      'https://panel.example.com/sd',
    );
    expect(panelUrlOf('something else')).toBeNull();
  });
});

describe('panelUrlProblems', () => {
  it.each([
    'http://localhost:8080',
    'http://LOCALHOST',
    'http://panel.localhost:8080',
    'http://127.0.0.1:8080',
    'http://127.1.2.3',
    'http://[::1]:8080',
    'http://0.0.0.0:8080',
    'https://localhost',
    'http://[::ffff:127.0.0.1]',
  ])('%s: a remote server cannot reach it', (url) => {
    expect(panelUrlProblems(url).unreachable).toBe(true);
  });

  it.each(['http://203.0.113.10:8080', 'http://panel.lan', 'https://panel.example.com'])(
    '%s: reachable from elsewhere',
    (url) => {
      expect(panelUrlProblems(url).unreachable).toBe(false);
    },
  );

  it('warns about plain http, never about https', () => {
    expect(panelUrlProblems('http://203.0.113.10:8080').plainHttp).toBe(true);
    expect(panelUrlProblems('http://localhost:8080').plainHttp).toBe(true);
    expect(panelUrlProblems('https://panel.example.com').plainHttp).toBe(false);
  });
});
