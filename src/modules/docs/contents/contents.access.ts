import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Access, MeterRule, Visibility } from '../../../shared/access.js';
import { contextOf } from '../../../shared/http/route.js';
import type { AccessService } from '../../readerhub/index.js';

/** A public content's access: the same for everyone, made once. */
const PUBLIC: Access = Object.freeze({ granted: true, visibility: 'public', via: 'public', reason: null, meter: null }) as Access;

/** The media's meter as the decision reads it. */
export const meterOf = (media: { meterLimit: number; meterPeriodDays: number }): MeterRule => ({ limit: media.meterLimit, periodDays: media.meterPeriodDays });

/**
 * The access decision for a content a Reader (or Public) request opens, by the one rule
 * (shared/access.ts): a public content at no cost; any other on the primary database (the reader's
 * account, entitlements and meter), its answer `private, no-store`: it depends on who asks, so no
 * shared cache may keep it, and its ETag (of the body, `access` included) differs per access state.
 */
export function contentGate(access: AccessService) {
  return async (
    req: FastifyRequest,
    reply: FastifyReply,
    content: { id: string; visibility: Visibility; productKeys: readonly string[] },
    preview = false,
  ): Promise<Access> => {
    if (content.visibility === 'public') return PUBLIC;
    // A preview token opened it (its answer is private already): granted, whoever asks.
    if (preview) return { granted: true, visibility: content.visibility, via: 'preview', reason: null, meter: null };
    reply.header('cache-control', 'private, no-store');
    const ctx = contextOf(req, 'primary');
    const reader = await access.readerOf(ctx);
    return access.open(ctx, content, reader, meterOf(req.media), new Date());
  };
}

export type ContentGate = ReturnType<typeof contentGate>;
