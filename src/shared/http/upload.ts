import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError, type ErrorDetail, errors } from '../errors.js';
import type { RequestContext } from './route.js';

/**
 * File uploads (`multipart/form-data`, one file and a few text fields), for the route plugins
 * that take them: `acceptUploads(app)` in the plugin, `consumes: ['multipart/form-data']` and
 * the form's schema as `body` on the route (documentation only), and the form as the route's
 * `upload` (route.ts), which reads it with `readUpload` before the route's work starts.
 * Elsewhere a form body stays a 415.
 */
export async function acceptUploads(app: FastifyInstance): Promise<void> {
  await app.register(multipart, {
    limits: { files: 1, fields: 20, parts: 21, fieldNameSize: 100, fieldSize: 64 * 1024, headerPairs: 100 },
  });
  // Any other body reaches the handler, whose 415 names the type it takes.
  app.addContentTypeParser('*', (_req, _payload, done) => done(null));
}

/** The file part of a multipart form, documented as binary. */
export const fileField = z.string().meta({ format: 'binary' });

export interface Upload<F, T = undefined> {
  bytes: Buffer;
  /** The name the client gave the file: a label at most, never a path. */
  filename: string;
  fields: F;
  /** What the form's `stage` made of the file before the work began (undefined without one). */
  staged: T;
}

export interface UploadForm<S extends z.ZodType, T = undefined> {
  /** Largest file in bytes (413 beyond); the file is never buffered past it. */
  limit: number;
  /** The form's text fields (the file field left out): unknown fields are refused like in a JSON body. */
  fields: S;
  /** Name of the file field (default `file`). */
  field?: string;
  /**
   * The file's slow work that needs no transaction (decoding, stripping metadata, storing the
   * bytes), run once the form is read and before the route's work (and its transaction) starts,
   * so that it holds no connection or lock meanwhile; the handler gets its result as `staged`.
   * It may refuse the request first (the record the path names is gone): nothing is stored then.
   */
  stage?: (ctx: RequestContext, upload: Upload<z.output<S>>, params: Record<string, string>) => Promise<T>;
}

const megabytes = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;

/** The failures of reading the form, each answered with the envelope (never a 500). */
function uploadError(err: unknown, limit: number): AppError {
  if (err instanceof AppError) return err;
  const code = (err as { code?: string }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') {
    return new AppError(413, 'payload_too_large', `the file is larger than the limit of ${limit} bytes (${megabytes(limit)})`);
  }
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') return new AppError(413, 'payload_too_large', 'the form has too many parts');
  if (code === 'FST_FILES_LIMIT') {
    return errors.validation('the form may carry one file only', [{ path: 'file', message: 'send exactly one file' }]);
  }
  // What is left comes from parsing the client's bytes: a malformed or cut-off form.
  return errors.badRequest('invalid_multipart', 'the multipart/form-data body is malformed or incomplete');
}

/**
 * Reads one file and the text fields of a multipart form: the file is buffered up to `limit`
 * bytes (413 past it), the fields are validated with `fields` (400 naming each one).
 */
export async function readUpload<S extends z.ZodType>(req: FastifyRequest, options: UploadForm<S, unknown>): Promise<Upload<z.output<S>>> {
  const field = options.field ?? 'file';
  if (!req.isMultipart()) {
    throw new AppError(415, 'unsupported_media_type', `the request body must be multipart/form-data with the file in the field "${field}"`);
  }
  const values: Record<string, string> = {};
  let file: { bytes: Buffer; filename: string } | undefined;
  try {
    for await (const part of req.parts({ limits: { fileSize: options.limit } })) {
      if (part.type === 'file') {
        if (part.fieldname !== field) {
          throw errors.validation(`the file must be sent in the field "${field}"`, [{ path: part.fieldname, message: `send the file as "${field}"` }]);
        }
        file = { bytes: await part.toBuffer(), filename: part.filename };
      } else if (part.fieldname in values) {
        throw errors.validation(`the field ${part.fieldname} is sent twice`, [{ path: part.fieldname, message: 'send it once' }]);
      } else {
        values[part.fieldname] = String(part.value);
      }
    }
  } catch (err) {
    throw uploadError(err, options.limit);
  }
  if (!file) throw errors.validation(`the form carries no file in the field "${field}"`, [{ path: field, message: 'is required' }]);
  const parsed = options.fields.safeParse(values);
  if (!parsed.success) {
    const details: ErrorDetail[] = parsed.error.issues.map((issue) => ({
      path: (issue.path.length > 0 ? issue.path.join('.') : ((issue as { keys?: string[] }).keys ?? []).join(',')).slice(0, 200),
      message: issue.message,
    }));
    throw errors.validation(`the form is invalid (${details[0]?.path ? `${details[0].path}: ` : ''}${details[0]?.message ?? 'is invalid'})`, details);
  }
  return { ...file, fields: parsed.data, staged: undefined };
}

/**
 * The body schemas of multipart routes: their handler streams and checks the form itself
 * (`readUpload`), so the app's validator passes such a body through (src/plugins/validator.ts).
 */
export const streamedBodies = new WeakSet<object>();
