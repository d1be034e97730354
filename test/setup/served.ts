import { appendFileSync, existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { checkContract } from './contract.js';

/**
 * Every answer a test app sends keeps to the OpenAPI document it serves (`checkContract`: status,
 * body, headers), and every JSON success answer of the three trees is made by at least one test. Production writes
 * the mappers' objects as they are (`src/plugins/serializer.ts`): what keeps them to their
 * response schemas is the check the tests' apps run on every answer, and it sees only the answers
 * the tests make. Each test app notes the route and status of each JSON success it answers (a
 * file per worker, in the run's directory); the global teardown of a whole run compares them with
 * the committed OpenAPI document and fails the run, naming those no test made. An answer that breaks
 * the document fails its own request and is noted in the run's directory too (`breaches-*`), so that
 * the teardown of any run, whole or not, fails naming it.
 */
export function recordServed(app: FastifyInstance, dir: string): void {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${process.pid}.txt`);
  checkContract(app, (line) => appendFileSync(join(dir, `${BREACHES}${process.pid}.txt`), `${line}\n`));
  app.addHook('onResponse', (req, reply, done) => {
    const status = reply.statusCode;
    if (status >= 200 && status < 300 && String(reply.getHeader('content-type') ?? '').startsWith('application/json')) {
      const answer = `${req.method} ${req.routeOptions.url} ${status}`;
      if (!served.has(answer)) {
        served.add(answer);
        appendFileSync(file, `${answer}\n`);
      }
    }
    done();
  });
}

const BREACHES = 'breaches-';

/** The answers of the run that broke the OpenAPI document (`checkContract`), each once. */
export function contractBreaches(dir: string): string[] {
  const lines = new Set<string>();
  for (const entry of existsSync(dir) ? readdirSync(dir, { withFileTypes: true }) : []) {
    if (entry.isFile() && entry.name.startsWith(BREACHES)) for (const line of readFileSync(join(dir, entry.name), 'utf8').split('\n')) if (line) lines.add(line);
  }
  return [...lines];
}

/** What this worker has noted already (its module state outlives a file). */
const served = new Set<string>();

interface OpenApiDocument {
  paths: Record<string, Record<string, { responses?: Record<string, { content?: Record<string, unknown> }> }>>;
}

/** The JSON success answers the OpenAPI document declares that no test app noted, as `METHOD /path/:param status`. */
export function unservedAnswers(dir: string, documentFile: string): string[] {
  const noted = new Set<string>();
  for (const name of readdirSync(dir, { withFileTypes: true })) {
    if (name.isFile() && !name.name.startsWith(BREACHES)) for (const line of readFileSync(join(dir, name.name), 'utf8').split('\n')) if (line) noted.add(line);
  }
  const document = JSON.parse(readFileSync(documentFile, 'utf8')) as OpenApiDocument;
  const missing: string[] = [];
  for (const [path, operations] of Object.entries(document.paths)) {
    const route = path.replace(/\{([^}]+)\}/g, ':$1');
    for (const [method, operation] of Object.entries(operations)) {
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        // A 204 has no body to check.
        if (!/^2\d\d$/.test(status) || status === '204' || !response.content?.['application/json']) continue;
        const answer = `${method.toUpperCase()} ${route} ${status}`;
        if (!noted.has(answer)) missing.push(answer);
      }
    }
  }
  return missing;
}
