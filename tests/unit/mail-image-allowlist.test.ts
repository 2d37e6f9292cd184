import { afterEach, describe, expect, it, vi } from 'vitest';
import { type ImageMessageKey, allowedImages } from '../../features/mail/serverImageAllowlist';

const key = (over: Partial<ImageMessageKey> = {}): ImageMessageKey => ({
  serverId: 1,
  mailboxId: 2,
  userId: 3,
  folder: 'INBOX',
  uid: 7,
  ...over,
});

describe("the image proxy's allowlist of a message", () => {
  afterEach(() => vi.useRealTimers());

  it('reads once a minute per message and reader, never shared between readers', async () => {
    vi.useFakeTimers();
    const app = {};
    const read = vi.fn(async () => ['https://a.example/1.png']);
    const [a, b] = await Promise.all([
      allowedImages(app, key(), read),
      allowedImages(app, key(), read),
    ]);
    expect(a.has('https://a.example/1.png')).toBe(true);
    expect(b).toBe(a);
    expect(read).toHaveBeenCalledTimes(1);
    await allowedImages(app, key({ userId: 4 }), read);
    await allowedImages(app, key({ uid: 8 }), read);
    await allowedImages({}, key(), read);
    expect(read).toHaveBeenCalledTimes(4);
    vi.advanceTimersByTime(61_000);
    await allowedImages(app, key(), read);
    expect(read).toHaveBeenCalledTimes(5);
  });

  it('forgets a failed read at once', async () => {
    const app = {};
    await expect(
      allowedImages(app, key(), () => Promise.reject(new Error('offline'))),
    ).rejects.toThrow('offline');
    const read = vi.fn(async () => []);
    await allowedImages(app, key(), read);
    expect(read).toHaveBeenCalledTimes(1);
  });

  it('keeps at most 500 messages, the oldest going first', async () => {
    const app = {};
    const read = vi.fn(async () => []);
    for (let uid = 0; uid <= 500; uid++) await allowedImages(app, key({ uid }), read);
    expect(read).toHaveBeenCalledTimes(501);
    await allowedImages(app, key({ uid: 500 }), read);
    expect(read).toHaveBeenCalledTimes(501);
    await allowedImages(app, key({ uid: 0 }), read);
    expect(read).toHaveBeenCalledTimes(502);
  });
});
