/**
 * Reads an `application/x-www-form-urlencoded` body with bracketed keys the way Stripe's API
 * does (and `qs` does): `metadata[invoice_id]=7&expand[0]=customer&items[0][price]=p` gives
 * `{metadata:{invoice_id:'7'}, expand:['customer'], items:[{price:'p'}]}`. Values stay strings.
 */
export type FormValue = string | FormValue[] | { [key: string]: FormValue };
export type FormObject = { [key: string]: FormValue };

export function parseFormBody(body: string): FormObject {
  const root: FormObject = {};
  for (const [fullKey, value] of new URLSearchParams(body)) {
    const [head = '', ...rest] = fullKey.split('[');
    const path = [head, ...rest.map((part) => part.replace(/\]$/, ''))];
    let node: FormObject = root;
    path.forEach((segment, index) => {
      const key = segment === '' ? String(Object.keys(node).length) : segment;
      if (index === path.length - 1) {
        node[key] = value;
        return;
      }
      const next = node[key];
      if (typeof next !== 'object' || Array.isArray(next)) node[key] = {};
      node = node[key] as FormObject;
    });
  }
  return arraysOf(root) as FormObject;
}

/** Objects whose keys are 0..n-1 become arrays (`expand[0]`, `items[1][price]`). */
function arraysOf(value: FormValue): FormValue {
  if (typeof value === 'string' || Array.isArray(value)) return value;
  const keys = Object.keys(value);
  const converted = Object.fromEntries(keys.map((key) => [key, arraysOf(value[key] ?? '')]));
  const isList = keys.length > 0 && keys.every((key, index) => key === String(index));
  return isList ? keys.map((key) => converted[key] ?? '') : converted;
}
