/** Limits of a profile photo, checked before upload so nobody waits for a refused request. */
export const PHOTO_MAX_BYTES = 1024 * 1024;
export const PHOTO_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;
/** For the file picker's `accept`. */
export const PHOTO_ACCEPT = PHOTO_TYPES.join(',');

/** The reason a file cannot be a profile photo, or null when it can. */
export function photoFileProblem(file: { size: number; type: string }): string | null {
  if (!(PHOTO_TYPES as readonly string[]).includes(file.type)) return 'PNG, JPEG, WebP or GIF only';
  if (file.size > PHOTO_MAX_BYTES)
    return `The photo must be 1 MB or smaller (this one is ${formatBytes(file.size)})`;
  if (file.size === 0) return 'This file is empty';
  return null;
}

const UNITS = ['Bytes', 'KB', 'MB', 'GB', 'TB', 'PB', 'EB', 'ZB', 'YB'];

/** The spec's byte formatting: units from Bytes to YB, base 1024, 2 decimals by default. */
export function formatBytes(bytes: number, decimals = 2): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 Bytes';
  const exponent = Math.min(Math.floor(Math.log(bytes) / Math.log(1024)), UNITS.length - 1);
  const value = bytes / 1024 ** exponent;
  return `${parseFloat(value.toFixed(Math.max(0, decimals)))} ${UNITS[exponent]}`;
}

/** Reads a file as the `data:` URL the photo API takes. */
export function readAsDataUrl(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('Could not read the file'));
    reader.readAsDataURL(file);
  });
}
