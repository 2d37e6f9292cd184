/**
 * "Chrome 131 on Linux" from a User-Agent header: enough to recognise one's own devices in the
 * login activity; the full string stays available as a tooltip.
 */
const BROWSERS: [RegExp, string][] = [
  [/Edg(?:e|A|iOS)?\/(\d+)/, 'Edge'],
  [/OPR\/(\d+)/, 'Opera'],
  [/Firefox\/(\d+)/, 'Firefox'],
  [/FxiOS\/(\d+)/, 'Firefox'],
  [/CriOS\/(\d+)/, 'Chrome'],
  [/(?:HeadlessChrome|Chromium|Chrome)\/(\d+)/, 'Chrome'],
  [/Version\/(\d+)[^ ]* (?:Mobile\/\S+ )?Safari\//, 'Safari'],
  [/curl\/(\d+)/, 'curl'],
  [/node(?:-fetch)?\/?(\d*)/i, 'Node.js'],
];

const SYSTEMS: [RegExp, string][] = [
  [/Windows NT/, 'Windows'],
  [/iPhone|iPad|iPod/, 'iOS'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/Android/, 'Android'],
  [/CrOS/, 'ChromeOS'],
  [/Linux/, 'Linux'],
];

export function describeUserAgent(userAgent: string): string {
  const text = userAgent.trim();
  if (!text) return 'Unknown device';
  const browser = BROWSERS.map(([pattern, name]) => {
    const match = pattern.exec(text);
    return match ? `${name}${match[1] ? ` ${match[1]}` : ''}` : null;
  }).find(Boolean);
  const system = SYSTEMS.find(([pattern]) => pattern.test(text))?.[1];
  if (browser && system) return `${browser} on ${system}`;
  if (browser) return browser;
  if (system) return `Unknown browser on ${system}`;
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}
