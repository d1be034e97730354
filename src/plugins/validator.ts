import { validatorCompiler as zodValidatorCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { streamedBodies } from '../shared/http/upload.js';

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
  if (route.httpPart === 'body' && streamedBodies.has(route.schema as object)) return () => true;
  const validate = zodValidatorCompiler(route);
  if (route.httpPart === 'params') return uuidParams(route.schema, validate) ?? validate;
  if (route.httpPart !== 'headers') return validate;
  return (data) => {
    const result = validate(data) as { value?: unknown; error?: Error };
    return result.error === undefined && unchanged(result.value, data) ? {} : result;
  };
};

/**
 * Path parameters that are all plain uuids (`/categories/:id`, `/advertisers/:advertiser_id/ads/:id`,
 * most routes): each tested with the uuid schema's own pattern, which is all zod's parse of such
 * an object does, without building a parse context and a new object per request (on every by-id
 * read). Anything else, and any value the pattern refuses, goes to zod, so that what a
 * route accepts and every error it answers stay zod's.
 */
function uuidParams(schema: unknown, validate: ReturnType<Compile>): ReturnType<Compile> | undefined {
  if (!(schema instanceof z.ZodObject) || schema.def.catchall !== undefined || schema.def.checks?.length) return undefined;
  const names = Object.keys(schema.shape);
  const patterns: RegExp[] = [];
  for (const name of names) {
    const field = schema.shape[name] as z.ZodType;
    const pattern = field instanceof z.ZodUUID && !field.def.checks?.length ? field.def.pattern : undefined;
    if (!pattern) return undefined;
    patterns.push(pattern);
  }
  return (data) => {
    const params = data as Record<string, unknown>;
    let given = 0;
    for (const name in params) {
      const at = names.indexOf(name);
      const value = params[name];
      if (at < 0 || typeof value !== 'string' || !patterns[at]!.test(value)) return validate(data);
      given++;
    }
    return given === names.length ? { value: data } : validate(data);
  };
}
