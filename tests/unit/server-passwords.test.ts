import { describe, expect, it } from 'vitest';
import { systemUserPassword } from '../../resources/agent/validators';
import { sysuserCreate } from '../../features/sysusers/resource';
import { GENERATED_PASSWORD_LENGTH, generatePassword } from '../../src/generic/passwords';

describe('generated system-user passwords', () => {
  it('are 36 characters the shared password rule accepts', () => {
    expect(GENERATED_PASSWORD_LENGTH).toBe(36);
    for (let i = 0; i < 200; i++) {
      const password = generatePassword();
      expect(password).toHaveLength(36);
      expect(systemUserPassword.safeParse(password).success).toBe(true);
    }
  });

  it('make a valid create body for root and the default user', () => {
    for (const user_name of ['root', 'stackdeck']) {
      const body = { user_name, password: generatePassword(), quota_hard: 0, quota_soft: 0 };
      expect(sysuserCreate.safeParse(body).success).toBe(true);
    }
  });

  it('differ every time and use a wide alphabet', () => {
    const seen = new Set(Array.from({ length: 100 }, () => generatePassword()));
    expect(seen.size).toBe(100);
    const chars = new Set([...seen].join(''));
    expect(chars.size).toBeGreaterThan(50);
  });

  it('honour another length', () => {
    expect(generatePassword(12)).toHaveLength(12);
  });
});
