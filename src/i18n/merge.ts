/** Messages are nested objects of strings; a locale overrides what it translates. */
export interface MessageTree {
  [key: string]: string | MessageTree;
}

const isTree = (value: unknown): value is MessageTree =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Deep-merges `overrides` over `base`: keys a locale lacks fall back to the base (English). */
export function mergeMessages(base: MessageTree, ...overrides: MessageTree[]): MessageTree {
  const result: MessageTree = { ...base };
  for (const override of overrides) {
    for (const [key, value] of Object.entries(override)) {
      const current = result[key];
      result[key] = isTree(current) && isTree(value) ? mergeMessages(current, value) : value;
    }
  }
  return result;
}
