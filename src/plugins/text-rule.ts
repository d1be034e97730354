// One rule for every string a request carries (path, query, body, keys included): no NUL and
// no unpaired UTF-16 surrogate. PostgreSQL stores neither (22021, 22P02 on jsonb), and a JSON
// body can spell both as escapes ("\u0000", "\ud800"), so the parsed values are checked.
const BAD_TEXT = /\0|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const isBadText = (value: string): boolean => BAD_TEXT.test(value);

/**
 * The path (`metadata.0.value`) of the first string or key that breaks the rule, or undefined.
 * Iterative, so that a deeply nested body cannot overflow the stack.
 */
export function findBadText(value: unknown): string | undefined {
  const stack: Array<[unknown, string]> = [[value, '']];
  while (stack.length > 0) {
    const [current, path] = stack.pop()!;
    if (typeof current === 'string') {
      if (isBadText(current)) return path;
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) stack.push([current[i], path ? `${path}.${i}` : String(i)]);
    } else if (current !== null && typeof current === 'object') {
      for (const [key, item] of Object.entries(current)) {
        const at = path ? `${path}.${key}` : key;
        if (isBadText(key)) return at;
        stack.push([item, at]);
      }
    }
  }
  return undefined;
}
