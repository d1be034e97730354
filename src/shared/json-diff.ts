/**
 * The changes between two JSON documents, as paths that name array entries by a natural key
 * declared per array (a locale entry by `locale`, a block by `id`, a metadata entry by `key`),
 * never by index: a block moved is a `replace` of its `position`, not a removal and an addition of
 * everything after it. An array without a declared key is one value (replaced whole when it differs).
 */

/** The key field of each array, by the dotted path of field names that leads to it: `{locales: 'locale', 'sections.blocks': 'id'}`. */
export type DiffKeys = Readonly<Record<string, string>>;

export interface Change {
  op: 'add' | 'remove' | 'replace';
  /** A JSON pointer whose array steps are entries' keys. */
  path: string;
  from?: unknown;
  value?: unknown;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** RFC 6901 escaping of one step. */
const step = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

/** Deep equality of JSON values (object key order does not matter). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => sameJson(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => k in b && sameJson(a[k], b[k]));
  }
  return false;
}

export function jsonDiff(from: unknown, to: unknown, keys: DiffKeys): Change[] {
  const changes: Change[] = [];
  const visit = (a: unknown, b: unknown, path: string, fields: string) => {
    if (isObject(a) && isObject(b)) {
      for (const k of Object.keys(a)) {
        const p = `${path}/${step(k)}`;
        const f = fields ? `${fields}.${k}` : k;
        if (!(k in b)) changes.push({ op: 'remove', path: p, from: a[k] });
        else visit(a[k], b[k], p, f);
      }
      for (const k of Object.keys(b)) if (!(k in a)) changes.push({ op: 'add', path: `${path}/${step(k)}`, value: b[k] });
      return;
    }
    const key = keys[fields];
    if (key && Array.isArray(a) && Array.isArray(b)) {
      const keyOf = (e: unknown) => (isObject(e) ? String(e[key]) : JSON.stringify(e));
      const before = new Map(a.map((e) => [keyOf(e), e]));
      const after = new Map(b.map((e) => [keyOf(e), e]));
      for (const [k, e] of before) {
        const p = `${path}/${step(k)}`;
        if (!after.has(k)) changes.push({ op: 'remove', path: p, from: e });
        else visit(e, after.get(k), p, fields);
      }
      for (const [k, e] of after) if (!before.has(k)) changes.push({ op: 'add', path: `${path}/${step(k)}`, value: e });
      return;
    }
    if (!sameJson(a, b)) changes.push({ op: 'replace', path, from: a, value: b });
  };
  visit(from, to, '', '');
  return changes;
}
