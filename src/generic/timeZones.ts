/**
 * The spec's "time zone entry": value (the IANA name the profile stores) and text (what the
 * select shows), from the browser's own list so it matches the zones the browser can format.
 */
export interface TimeZoneEntry {
  value: string;
  text: string;
}

/** "+05:30"-style offset of a zone at `at`; "" when the runtime cannot name it. */
export function utcOffset(timeZone: string, at: Date = new Date()): string {
  try {
    const part = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' })
      .formatToParts(at)
      .find((p) => p.type === 'timeZoneName')?.value;
    if (!part) return '';
    return part === 'GMT' ? '+00:00' : part.replace('GMT', '');
  } catch {
    return '';
  }
}

/** "(UTC+05:30) Asia/Kolkata", sorted by offset then name, like most panels show them. */
export function timeZoneEntries(
  zones: readonly string[] = Intl.supportedValuesOf('timeZone'),
  at: Date = new Date(),
): TimeZoneEntry[] {
  const withOffsets = zones.map((zone) => ({ zone, offset: utcOffset(zone, at) }));
  const minutes = (offset: string) => {
    const m = /^([+-])(\d\d):(\d\d)$/.exec(offset);
    return m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : 0;
  };
  return withOffsets
    .sort((a, b) => minutes(a.offset) - minutes(b.offset) || a.zone.localeCompare(b.zone))
    .map(({ zone, offset }) => ({
      value: zone,
      text: `(UTC${offset}) ${zone.replaceAll('_', ' ')}`,
    }));
}

/** A stored zone the browser does not list (renamed zones) still shows as a choice. */
export function withCurrentZone(entries: TimeZoneEntry[], current: string | undefined) {
  if (!current || entries.some((entry) => entry.value === current)) return entries;
  return [{ value: current, text: current }, ...entries];
}
