import { describe, expect, it } from 'vitest';
import { looksSerialized, replaceInValue, urlPairs } from '../../features/clone/serialized';

const pairs = urlPairs('a.test', 'new-site.example');
const run = (text: string | Buffer) =>
  replaceInValue(Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8'), pairs);
const text = (r: { value: Buffer }) => r.value.toString('utf8');
/** PHP's serialize() of a UTF-8 string: its byte length. */
const s = (v: string) => `s:${Buffer.byteLength(v)}:"${v}";`;

describe('urlPairs', () => {
  it('gives every form, longest first', () => {
    const froms = pairs.map(([f]) => f);
    expect(froms).toEqual(
      expect.arrayContaining([
        'https://a.test',
        'http://a.test',
        '//a.test',
        'https:\\/\\/a.test',
        'http:\\/\\/a.test',
        '\\/\\/a.test',
        'https%3A%2F%2Fa.test',
        'http%3A%2F%2Fa.test',
        '%2F%2Fa.test',
      ]),
    );
    const lengths = froms.map((f) => f.length);
    expect(lengths).toEqual([...lengths].sort((x, y) => y - x));
    expect(pairs.find(([f]) => f === 'https:\\/\\/a.test')![1]).toBe(
      'https:\\/\\/new-site.example',
    );
  });
  it('refuses what is not a domain', () => {
    expect(() => urlPairs('a.test', 'b test')).toThrow(/domain/);
    expect(() => urlPairs('', 'b.test')).toThrow(/domain/);
    expect(() => urlPairs('a.test"', 'b.test')).toThrow(/domain/);
  });
});

describe('replaceInValue', () => {
  it('replaces plain text and reports unchanged values as such', () => {
    const r = run('<a href="https://a.test/x">x</a> <img src="//a.test/i.png">');
    expect(text(r)).toBe(
      '<a href="https://new-site.example/x">x</a> <img src="//new-site.example/i.png">',
    );
    expect(r).toMatchObject({ changed: true, skipped: false });
    const same = Buffer.from('nothing here');
    expect(run(same)).toEqual({ value: same, changed: false, skipped: false });
  });

  it('does not mangle a longer domain that contains the old one', () => {
    const r = run(
      'https://a.test.org/ //a.testing.com http://a.test-2.net https://aa.test https://sub.a.test',
    );
    expect(r.changed).toBe(false);
    // The end of a name: a path, a port, a quote, the end of a sentence.
    expect(text(run('see https://a.test. and http://a.test:8080/ and "//a.test"'))).toBe(
      'see https://new-site.example. and http://new-site.example:8080/ and "//new-site.example"',
    );
  });

  it('rewrites JSON-escaped and URL-encoded forms', () => {
    // As PHP's json_encode writes it (slashes escaped), the way WordPress stores JSON.
    const json = JSON.stringify({ url: 'https://a.test/wp-json/', img: '//a.test/x.png' }).replace(
      /\//g,
      '\\/',
    );
    expect(json).toContain('https:\\/\\/a.test');
    const r = run(json);
    expect(JSON.parse(text(r))).toEqual({
      url: 'https://new-site.example/wp-json/',
      img: '//new-site.example/x.png',
    });
    expect(text(run('redirect_to=https%3A%2F%2Fa.test%2Fwp-admin'))).toBe(
      'redirect_to=https%3A%2F%2Fnew-site.example%2Fwp-admin',
    );
  });

  it('rewrites byte lengths of multibyte strings', () => {
    const v = 'Grüße aus https://a.test/ — 日本';
    const r = run(s(v));
    const want = v.replace('a.test', 'new-site.example');
    expect(text(r)).toBe(s(want));
    expect(text(r)).toMatch(new RegExp(`^s:${Buffer.byteLength(want)}:`));
  });

  it('recurses into nested arrays and objects, keeping keys and other types', () => {
    const input =
      `a:4:{${s('home')}${s('https://a.test')}i:7;a:2:{i:0;${s('http://a.test/é')}i:1;d:1.5E+3;}` +
      `${s('https://a.test')}b:1;${s('o')}O:8:"stdClass":3:{${s('\0*\0url')}${s('//a.test/p')}` +
      `${s('n')}N;${s('i')}i:-4;}}`;
    const r = run(input);
    expect(text(r)).toBe(
      `a:4:{${s('home')}${s('https://new-site.example')}i:7;a:2:{i:0;${s('http://new-site.example/é')}i:1;d:1.5E+3;}` +
        `${s('https://a.test')}b:1;${s('o')}O:8:"stdClass":3:{${s('\0*\0url')}${s('//new-site.example/p')}` +
        `${s('n')}N;${s('i')}i:-4;}}`,
    );
    expect(r).toMatchObject({ changed: true, skipped: false });
  });

  it('recurses into double-serialized values', () => {
    const inner = `a:1:{${s('url')}${s('https://a.test/ü')}}`;
    const outer = s(inner);
    const r = run(outer);
    const innerNew = `a:1:{${s('url')}${s('https://new-site.example/ü')}}`;
    expect(text(r)).toBe(s(innerNew));
  });

  it('leaves C: payloads untouched and says so', () => {
    const c = 'C:11:"ArrayObject":21:{x:i:0;a:0:{};m:a:0:{}}';
    const input = `a:2:{i:0;${c}i:1;${s('https://a.test')}}`;
    const r = run(input);
    expect(text(r)).toBe(`a:2:{i:0;${c}i:1;${s('https://new-site.example')}}`);
    expect(r).toMatchObject({ changed: true, skipped: true });
  });

  it('leaves broken serialized values unchanged and skipped', () => {
    for (const broken of [
      's:5:"https://a.test";', // wrong length (a plain sed did this)
      'a:2:{i:0;s:14:"https://a.test";}', // fewer members than announced
      'a:1:{i:0;s:14:"https://a.test";}trailing;',
      'O:8:"stdClass":1:{d:1;s:14:"https://a.test";}', // a key that is no key
    ]) {
      const r = run(broken);
      expect(r, broken).toMatchObject({ changed: false, skipped: true });
      expect(text(r)).toBe(broken);
    }
    // A broken inner value keeps the outer one valid and unchanged there.
    const r = run(`a:2:{i:0;${s('s:99:"https://a.test";')}i:1;${s('https://a.test')}}`);
    expect(text(r)).toBe(
      `a:2:{i:0;${s('s:99:"https://a.test";')}i:1;${s('https://new-site.example')}}`,
    );
    expect(r.skipped).toBe(true);
  });

  it('keeps bytes that are not UTF-8 as they are', () => {
    const payload = Buffer.concat([
      Buffer.from('\xff\xfe'.split('').map((c) => c.charCodeAt(0))),
      Buffer.from(' https://a.test'),
    ]);
    const input = Buffer.concat([Buffer.from(`s:${payload.length}:"`), payload, Buffer.from('";')]);
    const r = run(input);
    const want = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from(' https://new-site.example'),
    ]);
    expect(r.value).toEqual(
      Buffer.concat([Buffer.from(`s:${want.length}:"`), want, Buffer.from('";')]),
    );
  });

  it('accepts the scalar forms and floats PHP writes', () => {
    for (const v of ['N;', 'b:0;', 'i:-12;', 'd:0.1;', 'd:-INF;', 'd:NAN;', 'd:1.0E+25;'])
      expect(run(v), v).toMatchObject({ changed: false, skipped: false });
    expect(text(run('E:11:"Suit:Hearts";'))).toBe('E:11:"Suit:Hearts";');
  });

  it('only treats serialized-looking text as serialized', () => {
    expect(looksSerialized('a: note about https://a.test')).toBe(false);
    expect(text(run('a: note about https://a.test'))).toBe(
      'a: note about https://new-site.example',
    );
    expect(looksSerialized('a:0:{}')).toBe(true);
    expect(looksSerialized('s:3:"abc";')).toBe(true);
  });

  it('refuses absurd nesting without throwing', () => {
    const deep = 'a:1:{i:0;'.repeat(500) + 'N;' + '}'.repeat(500);
    expect(run(deep)).toMatchObject({ changed: false, skipped: true });
  });
});
