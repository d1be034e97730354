export interface ErrorDetail {
  path: string;
  message: string;
}

/** The wire envelope of every error: `{error, code, details?}`. */
export interface ErrorEnvelope {
  error: string;
  code: string;
  details?: ErrorDetail[];
}

/**
 * A route whose errors follow another standard (RFC 6749 at the token endpoint): the schema of
 * its error bodies, and the translation of the envelope into that shape.
 */
export interface ErrorFormat {
  schema: unknown;
  format: (envelope: ErrorEnvelope, status: number) => Record<string, unknown>;
}

/** The one error type a module throws; the error handler turns it into the wire envelope. */
export class AppError extends Error {
  readonly statusCode: number;
  readonly code: string;
  readonly details?: ErrorDetail[];
  readonly headers?: Record<string, string>;

  constructor(statusCode: number, code: string, message: string, details?: ErrorDetail[], headers?: Record<string, string>) {
    // A client's error (4xx) is an answer, not a fault to trace: capturing its stack was the
    // costliest part of refusing a request, and no log line shows it.
    const limit = Error.stackTraceLimit;
    if (statusCode < 500) Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
    this.name = 'AppError';
    this.statusCode = statusCode;
    this.code = code;
    if (details !== undefined) this.details = details;
    if (headers !== undefined) this.headers = headers;
  }
}

/**
 * Factories for the envelope's statuses. Modules name their own errors in a catalog
 * (`<module>.errors.ts`) built from these, with the code written out so grep finds it.
 */
export const errors = {
  badRequest: (code: string, message: string, details?: ErrorDetail[]) => new AppError(400, code, message, details),
  validation: (message: string, details: ErrorDetail[]) => new AppError(400, 'validation_failed', message, details),
  unauthorized: (message = 'a valid API key is required', code = 'unauthorized') => new AppError(401, code, message),
  forbidden: (message = 'this key is not allowed to do that', code = 'forbidden') => new AppError(403, code, message),
  notFound: (code: `${string}_not_found`, message: string) => new AppError(404, code, message),
  conflict: (code: string, message: string) => new AppError(409, code, message),
  unprocessable: (code: string, message: string) => new AppError(422, code, message),
};

/** The SQLSTATE of a driver error, looking through the wrappers Drizzle puts around it. */
export function pgErrorCode(err: unknown): string | undefined {
  let current: unknown = err;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

export const PG_UNIQUE_VIOLATION = '23505';
export const PG_FOREIGN_KEY_VIOLATION = '23503';

/** Runs a write and turns a unique-constraint violation into the given 409. */
export async function uniqueOr<T>(work: PromiseLike<T>, conflict: () => AppError): Promise<T> {
  try {
    return await work;
  } catch (err) {
    if (pgErrorCode(err) === PG_UNIQUE_VIOLATION) throw conflict();
    throw err;
  }
}
