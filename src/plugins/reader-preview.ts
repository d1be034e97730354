import type { FastifyContextConfig, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { z } from 'zod';
import type { Preview } from '../shared/context.js';
import type { AppError } from '../shared/errors.js';
import { withHeader } from '../shared/http/route.js';
import { routeOf } from '../shared/http/route-options.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** What the request's preview token lets it see (x-preview-token); null without one. */
    preview: Preview | null;
  }
  interface FastifyContextConfig {
    /**
     * A Reader read about one content, named by this path parameter: a preview link of that content
     * opens it here. A preview link opens no other route; a time-travel token opens every read.
     */
    previewOf?: string;
  }
}

const tokenSchema = z.string().min(1).max(200);
const previewHeader = tokenSchema.optional().describe('A preview token (a content preview link or a time-travel token), with a bearer token of the same media');
const previewQuery = tokenSchema.optional().describe('The preview token, for links opened in a browser: the same as the `x-preview-token` header');

/** Whether a Reader route takes a preview token: a read that needs a bearer token of the media. */
export const previewable = (route: { method: string | string[]; config?: FastifyContextConfig | undefined }): boolean =>
  (route.method === 'GET' || route.method === 'HEAD') && !route.config?.anonymous && !route.config?.mediaOptional;

/**
 * Declares the preview token on a previewable route: the `x-preview-token` header, the
 * `preview_token` query parameter (where the query is an object) and the answers' X-Robots-Tag.
 */
export function declarePreview(route: RouteOptions): void {
  const query = route.schema?.querystring;
  const querystring =
    query === undefined ? z.object({ preview_token: previewQuery }) : query instanceof z.ZodObject ? query.extend({ preview_token: previewQuery }) : query;
  route.schema = { ...route.schema, querystring, headers: withHeader(route.schema?.headers, 'x-preview-token', previewHeader) };
  route.config = { ...route.config, answerHeaders: [...(route.config?.answerHeaders ?? []), 'X-Robots-Tag'] };
}

/**
 * Reader previews (CONVENTIONS, "Revisions, corrections and preview"), on onRequest after the
 * media and the bearer token are admitted: a request with a preview token gets `req.preview`
 * (its context's `preview`), or 401 preview_token_invalid for an unknown, expired, revoked or
 * foreign one, or a preview link used on another record. A request without one pays one header
 * and one query lookup, and no promise.
 */
export function readerPreview(deps: {
  /** What a token of the media opens; throws `invalid()` for an unknown, expired, revoked or foreign one. */
  resolve: (mediaId: string, token: string) => Promise<Preview>;
  invalid: () => AppError;
}) {
  const admit = (req: FastifyRequest, reply: FastifyReply, preview: Preview) => {
    if (preview.contentId !== null) {
      const param = routeOf(req).config.previewOf;
      const id = param ? (req.params as Record<string, string | undefined>)[param] : undefined;
      if (id?.toLowerCase() !== preview.contentId) throw deps.invalid();
    }
    req.preview = preview;
    // Never in a search engine's index, whatever the status of the answer.
    reply.header('x-robots-tag', 'noindex');
  };
  return (req: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => {
    if (!previewable(routeOf(req))) return done();
    const header = req.headers['x-preview-token'];
    const token = typeof header === 'string' && header !== '' ? header : (req.query as Record<string, unknown> | undefined)?.preview_token;
    if (typeof token !== 'string' || token === '') return done();
    deps.resolve(req.mediaId, token).then(
      (preview) => {
        try {
          admit(req, reply, preview);
          done();
        } catch (err) {
          done(err as Error);
        }
      },
      (err: Error) => done(err),
    );
  };
}
