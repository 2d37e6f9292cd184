import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hmac, safeEqual, sha256 } from '../../server/auth/hash';
import { SecretBox } from '../../server/auth/secretBox';
import { newTotpSecret, totpCodeAt, totpStep, totpUri } from '../../server/auth/totp';

describe('SecretBox (AES-256-GCM)', () => {
  const box = new SecretBox(randomBytes(32));

  it('seals and opens; the sealed text does not hold the plain text', () => {
    const sealed = box.seal('JBSWY3DPEHPK3PXP');
    expect(sealed).toMatch(/^v1:[A-Za-z0-9+/=]+$/);
    expect(sealed).not.toContain('JBSWY3DPEHPK3PXP');
    expect(Buffer.from(sealed.slice(3), 'base64').toString('latin1')).not.toContain('JBSWY3DP');
    expect(box.open(sealed)).toBe('JBSWY3DPEHPK3PXP');
  });

  it('uses a fresh IV each time', () => {
    expect(box.seal('same')).not.toBe(box.seal('same'));
  });

  it('refuses tampered text, another key and unknown formats', () => {
    const sealed = box.seal('secret');
    const raw = Buffer.from(sealed.slice(3), 'base64');
    raw[raw.length - 1]! ^= 1;
    expect(() => box.open(`v1:${raw.toString('base64')}`)).toThrow();
    expect(() => new SecretBox(randomBytes(32)).open(sealed)).toThrow();
    expect(() => box.open('v2:abc')).toThrow(/unknown sealed format/);
    expect(() => new SecretBox(randomBytes(16))).toThrow(/32-byte key/);
  });
});

describe('TOTP', () => {
  const secret = newTotpSecret();
  const at = Date.UTC(2030, 0, 1, 12, 0, 10);
  const step = Math.floor(at / 30_000);

  it('makes 160-bit base32 secrets and an otpauth URI', () => {
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(newTotpSecret()).not.toBe(secret);
    const uri = totpUri(secret, 'ada@example.com');
    expect(uri).toMatch(/^otpauth:\/\/totp\/Stackdeck:ada%40example\.com\?/);
    expect(uri).toContain(`secret=${secret}`);
    expect(uri).toContain('issuer=Stackdeck');
  });

  it('names the time step of a code, one step of drift either way', () => {
    expect(totpStep(secret, totpCodeAt(secret, at), at)).toBe(step);
    expect(totpStep(secret, totpCodeAt(secret, at - 30_000), at)).toBe(step - 1);
    expect(totpStep(secret, totpCodeAt(secret, at + 30_000), at)).toBe(step + 1);
  });

  it('refuses codes two steps away and codes of another secret', () => {
    const near = new Set([-1, 0, 1].map((d) => totpCodeAt(secret, at + d * 30_000)));
    for (const far of [totpCodeAt(secret, at - 90_000), totpCodeAt(secret, at + 90_000)]) {
      if (!near.has(far)) expect(totpStep(secret, far, at)).toBeNull();
    }
    const other = totpCodeAt(newTotpSecret(), at);
    if (!near.has(other)) expect(totpStep(secret, other, at)).toBeNull();
  });
});

describe('hashes', () => {
  it('sha256 and hmac are hex digests; hmac depends on the key', () => {
    expect(sha256('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    const k1 = new Uint8Array(32);
    const k2 = new Uint8Array(32).fill(1);
    expect(hmac(k1, 'x')).toMatch(/^[0-9a-f]{64}$/);
    expect(hmac(k1, 'x')).not.toBe(hmac(k2, 'x'));
  });

  it('safeEqual compares whole strings of any length', () => {
    expect(safeEqual('abc', 'abc')).toBe(true);
    expect(safeEqual('abc', 'abd')).toBe(false);
    expect(safeEqual('abc', 'abcd')).toBe(false);
    expect(safeEqual('', '')).toBe(true);
  });
});
