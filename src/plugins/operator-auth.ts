import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest, onRequestHookHandler } from 'fastify';
import { AppError } from '../shared/errors.js';
import type { AuthFailureThrottle } from './auth-failures.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Operator routes (/operator/v1): the caller presents OPERATOR_API_KEY. */
    operator?: boolean;
  }
}

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/**
 * The operator's key check, before the body is read. Only the key's SHA-256 is kept, and the
 * presented key's digest is compared in constant time: equal lengths, no early exit. No
 * media's API key passes, whatever its role.
 */
export function operatorAuth(operatorKey: string, failures: AuthFailureThrottle): onRequestHookHandler {
  const expected = digest(operatorKey);
  const verify = (req: FastifyRequest): void => {
    const presented = req.headers['x-api-key'];
    if (typeof presented !== 'string' || presented === '') {
      throw new AppError(401, 'missing_api_key', 'the x-api-key header is required');
    }
    if (!timingSafeEqual(digest(presented), expected)) {
      throw new AppError(401, 'invalid_operator_key', 'the operator key is wrong');
    }
  };
  return async (req) => {
    await failures.guard(req.ip, verify, req);
  };
}
