import { validatorCompiler as zodValidatorCompiler } from 'fastify-type-provider-zod';

type Compile = typeof zodValidatorCompiler;

/** Whether every header the schema kept is the very value the request sent. */
function unchanged(parsed: unknown, sent: unknown): boolean {
  if (typeof parsed !== 'object' || parsed === null || typeof sent !== 'object' || sent === null) return false;
  for (const name in parsed) {
    if ((parsed as Record<string, unknown>)[name] !== (sent as Record<string, unknown>)[name]) return false;
  }
  return true;
}

/**
 * Each route part validated by its zod schema (fastify-type-provider-zod), except that valid
 * headers the schema left as they came are not written back. Fastify keeps written-back headers
 * beside the request's own and merges the two into a new object on every later `req.headers` read
 * (an Object.assign of every header, each time): a Reader request, whose every route declares its
 * media header, paid it on each read after validation. A schema that changes a header (a default,
 * a transform) still has its value written back, and then read merged as before.
 */
export const validatorCompiler: Compile = (route) => {
  const validate = zodValidatorCompiler(route);
  if (route.httpPart !== 'headers') return validate;
  return (data) => {
    const result = validate(data) as { value?: unknown; error?: Error };
    return result.error === undefined && unchanged(result.value, data) ? {} : result;
  };
};
