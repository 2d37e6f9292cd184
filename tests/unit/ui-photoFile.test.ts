import { describe, expect, it } from 'vitest';
import { photoBody } from '../../resources/user-profile';
import { PHOTO_MAX_BYTES, formatBytes, photoFileProblem } from '../../src/generic/photoFile';

describe('photoFileProblem', () => {
  it('accepts PNG, JPEG, WebP and GIF up to 1 MB', () => {
    for (const type of ['image/png', 'image/jpeg', 'image/webp', 'image/gif']) {
      expect(photoFileProblem({ type, size: PHOTO_MAX_BYTES })).toBeNull();
    }
  });
  it('refuses other types, whatever their size', () => {
    expect(photoFileProblem({ type: 'image/svg+xml', size: 10 })).toBe(
      'PNG, JPEG, WebP or GIF only',
    );
    expect(photoFileProblem({ type: 'application/pdf', size: 10 })).toMatch(/PNG/);
  });
  it('refuses a byte over 1 MB and says how big the file is', () => {
    expect(photoFileProblem({ type: 'image/png', size: PHOTO_MAX_BYTES + 1 })).toBe(
      'The photo must be 1 MB or smaller (this one is 1 MB)',
    );
    expect(photoFileProblem({ type: 'image/png', size: 3 * 1024 * 1024 })).toMatch(/3 MB/);
  });
  it('refuses empty files', () => {
    expect(photoFileProblem({ type: 'image/png', size: 0 })).toBe('This file is empty');
  });
  it('lets through only files whose data URL the server schema also accepts', () => {
    // The largest accepted file, base64-encoded, must still fit the declared body limit.
    const base64Length = Math.ceil(PHOTO_MAX_BYTES / 3) * 4;
    const dataUrl = `data:image/jpeg;base64,${'A'.repeat(base64Length)}`;
    expect(photoBody.safeParse({ data: dataUrl }).success).toBe(true);
  });
});

describe('formatBytes (spec: Bytes to YB, base 1024, 2 decimals)', () => {
  it('formats with base 1024 and up to two decimals', () => {
    expect(formatBytes(0)).toBe('0 Bytes');
    expect(formatBytes(500)).toBe('500 Bytes');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(1048576)).toBe('1 MB');
    expect(formatBytes(1234567)).toBe('1.18 MB');
    expect(formatBytes(1234567, 0)).toBe('1 MB');
    expect(formatBytes(1024 ** 8 * 3)).toBe('3 YB');
  });
});
