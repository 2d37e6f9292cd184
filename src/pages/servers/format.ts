/** Units of the spec's byte formatting (section 9): Bytes to YB, base 1024. */
export const BYTE_UNITS = ['Bytes', 'KB', 'MB', 'GB', 'TB', 'PB', 'EB', 'ZB', 'YB'] as const;

/** `1536` → "1.5 KB": base 1024, 2 decimals by default, trailing zeros dropped. */
export function formatBytes(bytes: number, decimals = 2): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 Bytes';
  const digits = Math.max(0, decimals);
  const power = Math.min(
    BYTE_UNITS.length - 1,
    Math.max(0, Math.floor(Math.log(bytes) / Math.log(1024))),
  );
  const value = Number.parseFloat((bytes / 1024 ** power).toFixed(digits));
  return `${value} ${BYTE_UNITS[power]}`;
}

/** Bytes a second, as network rates read: "1.2 MB/s". */
export function formatRate(bytesPerSecond: number): string {
  return `${formatBytes(bytesPerSecond)}/s`;
}

/** Seconds since boot as people say it: "3 days, 4 h", "2 h 5 min", "40 s". */
export function formatUptime(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '—';
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  if (days > 0) return `${days} ${days === 1 ? 'day' : 'days'}, ${hours} h`;
  if (hours > 0) return `${hours} h ${minutes} min`;
  if (minutes > 0) return `${minutes} min`;
  return `${Math.floor(seconds)} s`;
}

/** Share of a total in per cent, 0-100, one decimal; 0 when the total is unknown. */
export function percentOf(used: number, total: number): number {
  if (!(total > 0)) return 0;
  return Math.min(100, Math.max(0, Math.round((used / total) * 1000) / 10));
}

/** A percentage as shown beside a gauge: "42.5%". */
export function formatPercent(value: number): string {
  return `${Number.isFinite(value) ? Math.round(value * 10) / 10 : 0}%`;
}
