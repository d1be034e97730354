import { newId } from '../../../db/columns.js';
import type { RequestContext } from '../../../shared/context.js';
import { coreErrors } from '../core.errors.js';
import type { ReferencesRepository } from './references.repository.js';
import { type ReferenceCreate, parseRef } from './references.schemas.js';

// A string that is not `<provider>:<uuid>` cannot name a reference: it is simply not found.
const keyOf = (ref: string) => {
  const key = parseRef(ref);
  if (!key) throw coreErrors.referenceNotFound();
  return key;
};

export function createReferencesService(deps: { repo: ReferencesRepository }) {
  const { repo } = deps;
  return {
    async create(ctx: RequestContext, input: ReferenceCreate) {
      const row = await repo.insert(ctx.db, {
        mediaId: ctx.mediaId,
        provider: input.provider,
        id: input.id?.toLowerCase() ?? newId(),
        urn: input.urn,
        expiresAt: input.expires_at ?? null,
      });
      if (!row) throw coreErrors.referenceExists();
      return row;
    },

    async get(ctx: RequestContext, ref: string) {
      const row = await repo.find(ctx.db, ctx.mediaId, keyOf(ref));
      if (!row) throw coreErrors.referenceNotFound();
      return row;
    },

    async remove(ctx: RequestContext, ref: string): Promise<void> {
      if (!(await repo.remove(ctx.db, ctx.mediaId, keyOf(ref)))) throw coreErrors.referenceNotFound();
    },

    /** The references among `refs` that exist, in the order asked, each once. */
    async lookup(ctx: RequestContext, refs: string[]) {
      const wanted = [...new Set(refs.map((r) => `${parseRef(r)!.provider}:${parseRef(r)!.id}`))];
      const rows = await repo.findMany(ctx.db, ctx.mediaId, wanted.map((r) => parseRef(r)!));
      const byRef = new Map(rows.map((row) => [`${row.provider}:${row.id}`, row]));
      return wanted.flatMap((r) => byRef.get(r) ?? []);
    },
  };
}

export type ReferencesService = ReturnType<typeof createReferencesService>;
