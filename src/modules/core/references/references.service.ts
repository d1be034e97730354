import type { Db } from '../../../db/client.js';
import { newId } from '../../../db/columns.js';
import { errors } from '../../../shared/errors.js';
import type { ReferencesRepository } from './references.repository.js';
import { type ReferenceCreate, parseRef } from './references.schemas.js';

const notFound = () => errors.notFound('reference');

// A string that is not `<provider>:<uuid>` cannot name a reference: it is simply not found.
const keyOf = (ref: string) => {
  const key = parseRef(ref);
  if (!key) throw notFound();
  return key;
};

export function createReferencesService(deps: { db: Db; repo: ReferencesRepository }) {
  const { db, repo } = deps;
  return {
    async create(mediaId: string, input: ReferenceCreate) {
      const row = await repo.insert(db, {
        mediaId,
        provider: input.provider,
        id: input.id?.toLowerCase() ?? newId(),
        urn: input.urn,
        expiresAt: input.expires_at ?? null,
      });
      if (!row) throw errors.conflict('reference_exists', 'a reference with this provider and id already exists');
      return row;
    },

    async get(mediaId: string, ref: string) {
      const row = await repo.find(db, mediaId, keyOf(ref));
      if (!row) throw notFound();
      return row;
    },

    async remove(mediaId: string, ref: string): Promise<void> {
      if (!(await repo.remove(db, mediaId, keyOf(ref)))) throw notFound();
    },

    /** The references among `refs` that exist, in the order asked, each once. */
    async lookup(mediaId: string, refs: string[]) {
      const wanted = [...new Set(refs.map((r) => `${parseRef(r)!.provider}:${parseRef(r)!.id}`))];
      const rows = await repo.findMany(db, mediaId, wanted.map((r) => parseRef(r)!));
      const byRef = new Map(rows.map((row) => [`${row.provider}:${row.id}`, row]));
      return wanted.flatMap((r) => byRef.get(r) ?? []);
    },
  };
}

export type ReferencesService = ReturnType<typeof createReferencesService>;
