// One rule for every string a request carries (path, query, body, keys included): no NUL and
// no unpaired UTF-16 surrogate. PostgreSQL stores neither (22021, 22P02 on jsonb), and a JSON
// body can spell both as escapes ("\u0000", "\ud800"), so the parsed values are checked.
const BAD_TEXT = /\0|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const isBadText = (value: string): boolean => BAD_TEXT.test(value);

/**
 * The path (`metadata.0.value`) of the first string or key that breaks the rule, or undefined.
 * Iterative, so that a deeply nested body cannot overflow the stack. Nearly every request passes:
 * a first walk names nothing, and only when it finds something does a second one build the paths
 * (a path string built per value, for the rare request that fails, would cost every request).
 */
export function findBadText(value: unknown): string | undefined {
  return firstBadText(value, false) === undefined ? undefined : firstBadText(value, true);
}

/** The walk: with `named`, the path of what it finds; else '' when it finds something. */
function firstBadText(value: unknown, named: boolean): string | undefined {
  const values: unknown[] = [value];
  const paths: string[] = [''];
  while (values.length > 0) {
    const current = values.pop();
    const path = named ? paths.pop()! : '';
    if (typeof current === 'string') {
      if (isBadText(current)) return path;
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) {
        values.push(current[i]);
        if (named) paths.push(path ? `${path}.${i}` : String(i));
      }
    } else if (current !== null && typeof current === 'object') {
      for (const key in current) {
        if (!Object.prototype.hasOwnProperty.call(current, key)) continue;
        const at = named ? (path ? `${path}.${key}` : key) : '';
        if (isBadText(key)) return at;
        values.push((current as Record<string, unknown>)[key]);
        if (named) paths.push(at);
      }
    }
  }
  return undefined;
}
