import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { listingProblem, parseTarListing, parseZipListing } from '../../features/releases/archive';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'releases-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const src = path.join(dir, 'src');
fs.mkdirSync(path.join(src, 'app', 'sub'), { recursive: true });
fs.writeFileSync(path.join(src, 'app', 'index.php'), '<?php echo 1;\n');
fs.writeFileSync(path.join(src, 'app', 'sub', 'a b.txt'), 'x'.repeat(100));

const tarList = (file: string) =>
  parseTarListing(execFileSync('tar', ['--numeric-owner', '-tvf', file], { encoding: 'utf8' }));
const tar = (name: string, args: string[]) => {
  const file = path.join(dir, name);
  execFileSync('tar', ['-czf', file, ...args]);
  return file;
};

describe('archive listings', () => {
  it('passes a plain tar.gz, reading sizes and names with spaces', () => {
    const entries = tarList(tar('ok.tar.gz', ['-C', src, 'app']));
    expect(listingProblem(entries)).toBeNull();
    expect(entries.find((e) => e.path === 'app/sub/a b.txt')?.size).toBe(100);
  });
  it('refuses absolute paths and .. components', () => {
    const abs = tar('abs.tar.gz', ['-P', path.join(src, 'app', 'index.php')]);
    expect(listingProblem(tarList(abs))).toMatch(/absolute/);
    const up = tar('up.tar.gz', ['-P', '-C', path.join(src, 'app', 'sub'), '../index.php']);
    expect(listingProblem(tarList(up))).toMatch(/\.\./);
  });
  it('refuses symlinks, hard links and setuid files', () => {
    const l = path.join(dir, 'links');
    fs.mkdirSync(l);
    fs.symlinkSync('/etc/passwd', path.join(l, 'pw'));
    expect(listingProblem(tarList(tar('sym.tar.gz', ['-C', dir, 'links'])))).toMatch(/link/);
    const s = path.join(dir, 'suid');
    fs.mkdirSync(s);
    fs.writeFileSync(path.join(s, 'run'), '#!/bin/sh\n');
    fs.chmodSync(path.join(s, 'run'), 0o4755);
    expect(listingProblem(tarList(tar('suid.tar.gz', ['-C', dir, 'suid'])))).toMatch(/setuid/);
  });
  it('refuses too many files or too many bytes', () => {
    const entries = tarList(tar('ok2.tar.gz', ['-C', src, 'app']));
    expect(listingProblem(entries, { maxFiles: 2, maxBytes: 1e9 })).toMatch(/entries/);
    expect(listingProblem(entries, { maxFiles: 100, maxBytes: 50 })).toMatch(/bytes/);
  });
  it('reads zip listings (unzip -Z) and refuses a symlink in a zip', () => {
    let hasZip = true;
    try {
      execFileSync('zip', ['-v'], { stdio: 'ignore' });
      execFileSync('unzip', ['-v'], { stdio: 'ignore' });
    } catch {
      hasZip = false;
    }
    if (!hasZip) return;
    const ok = path.join(dir, 'ok.zip');
    execFileSync('zip', ['-qr', ok, 'app'], { cwd: src });
    const entries = parseZipListing(execFileSync('unzip', ['-Z', ok], { encoding: 'utf8' }));
    expect(entries.map((e) => e.path)).toContain('app/sub/a b.txt');
    expect(listingProblem(entries)).toBeNull();
    const evil = path.join(dir, 'sym.zip');
    execFileSync('zip', ['-qry', evil, 'links'], { cwd: dir });
    const bad = parseZipListing(execFileSync('unzip', ['-Z', evil], { encoding: 'utf8' }));
    expect(listingProblem(bad)).toMatch(/link/);
  });
});
