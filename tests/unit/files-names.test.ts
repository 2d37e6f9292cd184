import { describe, expect, it } from 'vitest';
import { languageOf } from '../../features/files/languages';
import {
  appPath,
  archiveFormatOfName,
  entryName,
  extractFolderOf,
  fileMode,
  joinPath,
  normalizePath,
} from '../../features/files/names';

describe('file manager names', () => {
  it('normalizes paths inside the app and refuses climbing out or control characters', () => {
    expect(appPath.parse('public//./css/')).toBe('/public/css');
    expect(appPath.parse('')).toBe('/');
    expect(normalizePath('/a/b/')).toBe('/a/b');
    expect(joinPath('/', 'x')).toBe('/x');
    for (const bad of ['../etc', '/a/../../b', 'a\u0000b', 'a\nb', `/${'x'.repeat(256)}`])
      expect(appPath.safeParse(bad).success, bad).toBe(false);
  });

  it('takes one name, never a path or . and ..', () => {
    expect(entryName.parse('index.php')).toBe('index.php');
    for (const bad of ['', '.', '..', 'a/b', 'a\u0000'])
      expect(entryName.safeParse(bad).success, bad).toBe(false);
  });

  it('checks modes against ^[0-7]{3,4}$ and refuses setuid and setgid', () => {
    for (const good of ['644', '0755', '1777', '600']) expect(fileMode.parse(good)).toBe(good);
    for (const bad of ['4755', '2755', '6755', '999', '75', '07555', 'rwx'])
      expect(fileMode.safeParse(bad).success, bad).toBe(false);
  });

  it('names the folder an archive extracts into and its format', () => {
    expect(extractFolderOf('site.zip')).toBe('site');
    expect(extractFolderOf('site.tar.gz')).toBe('site');
    expect(extractFolderOf('.zip')).toBe('.zip-files');
    expect(archiveFormatOfName('a.TGZ')).toBe('tar.gz');
    expect(archiveFormatOfName('a.rar')).toBeNull();
  });

  it("picks the editor's language by extension", () => {
    expect(languageOf('index.php')).toBe('php');
    expect(languageOf('style.css')).toBe('css');
    expect(languageOf('.htaccess')).toBe('ini');
    expect(languageOf('README')).toBe('plaintext');
  });
});
