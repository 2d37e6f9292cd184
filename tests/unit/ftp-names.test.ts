import { describe, expect, it } from 'vitest';
import {
  chrootHome,
  directoryProblem,
  homeDir,
  isWithin,
  normalizeDirectory,
  parseFtpPasswd,
  renderFtpPasswd,
} from '../../features/ftp/names';
import { ftpChange, ftpInput } from '../../features/ftp/resource';

/** The FTP accounts' shared rules: folders inside the app, and Pure-FTPd's passwd lines. */
describe('FTP folders', () => {
  it('normalises slashes and dots; empty is the app folder', () => {
    expect(normalizeDirectory('')).toBe('.');
    expect(normalizeDirectory('/')).toBe('.');
    expect(normalizeDirectory('./')).toBe('.');
    expect(normalizeDirectory('/public//uploads/')).toBe('public/uploads');
    expect(normalizeDirectory('public/./media')).toBe('public/media');
  });

  it('refuses what leaves the app or hides', () => {
    expect(directoryProblem('.')).toBeNull();
    expect(directoryProblem('public/uploads')).toBeNull();
    expect(directoryProblem('..')).toMatch(/no \.\./);
    expect(directoryProblem('a/../../b')).toMatch(/no \.\./);
    expect(directoryProblem('.ssh')).toMatch(/not starting with a dot/);
    expect(directoryProblem('a:b')).not.toBeNull();
    expect(directoryProblem('a\nb')).not.toBeNull();
    expect(directoryProblem('a/b/c/d/e/f/g/h/i')).toMatch(/8 folders/);
  });

  it('says which folders hold which', () => {
    expect(isWithin('public/uploads', 'public')).toBe(true);
    expect(isWithin('public', 'public')).toBe(true);
    expect(isWithin('publicity', 'public')).toBe(false);
    expect(isWithin('anything', '.')).toBe(true);
  });

  it('validates bodies: the name, the password, the folder', () => {
    expect(ftpInput.parse({ username: 'shop.ftp', password: 'a long ftp password' })).toEqual({
      username: 'shop.ftp',
      password: 'a long ftp password',
      directory: '.',
    });
    for (const username of ['ab', 'Shop', '1shop', 'sh op', 'a:b', `a${'b'.repeat(32)}`])
      expect(ftpInput.safeParse({ username, password: 'a long ftp password' }).success).toBe(false);
    expect(ftpInput.safeParse({ username: 'shop', password: 'short' }).success).toBe(false);
    expect(ftpChange.parse({ password: '' })).toEqual({ password: '' });
    expect(ftpChange.safeParse({ directory: '../x' }).success).toBe(false);
  });
});

describe("Pure-FTPd's passwd lines", () => {
  const line =
    'joe:$6$salt$hash:1001:1001:stackdeck-7:/home/alice/apps/shop/./::::::::::::\n' +
    'own:$2a$xyz:1002:1002::/srv/own/./:100:200::::::::::\n';

  it('reads and writes them back as pure-pw does (18 fields)', () => {
    const lines = parseFtpPasswd(line);
    expect(lines[0]).toMatchObject({ username: 'joe', uid: 1001, gecos: 'stackdeck-7' });
    expect(lines[1]!.rest.slice(0, 2)).toEqual(['100', '200']);
    expect(renderFtpPasswd(lines)).toBe(line);
    expect(renderFtpPasswd(lines).split('\n')[0]!.split(':')).toHaveLength(18);
  });

  it('marks a chrooted home', () => {
    expect(chrootHome('/home/alice/apps/shop')).toBe('/home/alice/apps/shop/./');
    expect(homeDir('/home/alice/apps/shop/./')).toBe('/home/alice/apps/shop');
  });
});
