import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/**
 * The contract check of the test kit: every answer a test app sends for an operation of the
 * document it serves (`/openapi.json`) is held against that operation. Its status is declared; a
 * JSON body matches the declared schema (Ajv, JSON Schema 2020-12, formats checked); a body is sent
 * only where one is declared; the headers the document marks `required` are present; and a
 * documented header (one of `components.headers`) is sent only where the answer declares it. An
 * answer that breaks it fails its request (a 500, and the reason on stderr), so the test that made
 * it fails, and is noted for the run's teardown.
 */

type Schema = Record<string, unknown>;
interface Answer {
  description?: string;
  headers?: Record<string, { $ref?: string; required?: boolean }>;
  content?: Record<string, { schema?: Schema }>;
}
interface Operation {
  responses?: Record<string, Answer>;
}
export interface ServedDocument {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema>; headers?: Record<string, { required?: boolean }> };
}

const ajv = new Ajv2020({ strict: false, allErrors: false });
addFormats.default(ajv);
/** Each distinct set of components, added to Ajv once for the process, by its JSON text. */
const componentIds = new Map<string, string>();
const validators = new Map<string, ValidateFunction>();

/** The operations of a document by `METHOD /route/:param`, as Fastify names a request's route. */
export function contractOf(document: ServedDocument) {
  const text = JSON.stringify(document.components ?? {});
  let base = componentIds.get(text);
  if (!base) {
    base = `https://contract.invalid/components/${componentIds.size}`;
    ajv.addSchema({ $id: base, components: document.components ?? {} });
    componentIds.set(text, base);
  }
  const operations = new Map<string, Operation>();
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) operations.set(`${method.toUpperCase()} ${path.replace(/\{([^}]+)\}/g, ':$1')}`, operation);
  }
  const headers = new Map(Object.entries(document.components?.headers ?? {}).map(([name, header]) => [name.toLowerCase(), { name, required: header.required === true }]));
  const validator = (schema: Schema) => {
    const json = JSON.stringify(schema).replaceAll('"#/components/', `"${base}#/components/`);
    let validate = validators.get(json);
    if (!validate) validators.set(json, (validate = ajv.compile(JSON.parse(json) as Schema)));
    return validate;
  };
  return { operations, headers, validator };
}
export type Contract = ReturnType<typeof contractOf>;

/** What breaks the contract in one answer, or undefined when it holds. */
export function breach(contract: Contract, method: string, route: string, status: number, headers: Record<string, unknown>, payload: unknown): string | undefined {
  const operation = contract.operations.get(`${method === 'HEAD' ? 'GET' : method} ${route}`);
  if (!operation) return undefined;
  const answer = operation.responses?.[String(status)] ?? operation.responses?.default;
  if (!answer) return `status ${status} is not declared (declared: ${Object.keys(operation.responses ?? {}).join(', ')})`;
  const declared = new Set(Object.keys(answer.headers ?? {}).map((name) => name.toLowerCase()));
  for (const [name, header] of Object.entries(answer.headers ?? {})) {
    const required = header.required ?? contract.headers.get(header.$ref?.split('/').pop()?.toLowerCase() ?? '')?.required;
    if (required && headers[name.toLowerCase()] === undefined) return `the declared header ${name} is missing`;
  }
  for (const name of Object.keys(headers)) {
    const documented = contract.headers.get(name.toLowerCase());
    if (documented && !declared.has(name.toLowerCase())) return `the header ${documented.name} is sent but not declared for ${status}`;
  }
  const body = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : undefined;
  if (method === 'HEAD' || body === undefined || body === '') return undefined;
  const type = String(headers['content-type'] ?? '').split(';')[0]!.trim();
  if (!answer.content) return `a body (${type || 'no content-type'}) is sent where none is declared`;
  const media = answer.content[type];
  if (!media) return `the body's media type ${type} is not declared (declared: ${Object.keys(answer.content).join(', ')})`;
  if (type !== 'application/json' || !media.schema) return undefined;
  const validate = contract.validator(media.schema);
  if (validate(JSON.parse(body))) return undefined;
  const [first] = validate.errors ?? [];
  return `the body does not match its schema at ${first?.instancePath || '(the body)'}: ${first?.message ?? 'invalid'} (${first?.schemaPath ?? ''})`;
}

/**
 * Checks every answer of `app` (an onSend hook of the root, added once every route exists: it runs
 * after the trees' own, on the answer as it leaves). `noted` is told each breach.
 */
export function checkContract(app: FastifyInstance, noted: (line: string) => void): void {
  let contract: Contract | undefined;
  const failed = new WeakSet<FastifyRequest>();
  app.addHook('onSend', (req: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: Error | null, payload?: unknown) => void) => {
    const route = req.routeOptions.url;
    if (route === undefined || failed.has(req) || route === '/openapi.json' || route.startsWith('/docs')) return done(null, payload);
    contract ??= contractOf(app.swagger() as unknown as ServedDocument);
    const problem = breach(contract, req.method, route, reply.statusCode, reply.getHeaders(), payload);
    if (problem === undefined) return done(null, payload);
    failed.add(req);
    const message = `${req.method} ${route} ${reply.statusCode}: the answer breaks the OpenAPI document: ${problem}`;
    noted(message);
    // Tests run with logging off: said on stderr too, or the test would show only a 500.
    process.stderr.write(`${message}\n`);
    return done(new Error(message));
  });
}
