import type { Db, Executor } from '../../../db/client.js';
import { errors } from '../../../shared/errors.js';
import { sanitizeSvg } from '../../../shared/html.js';
import type { PagingQuery } from '../../../shared/schemas.js';
import { restore, softDelete } from '../../../shared/soft-delete.js';
import type { TenancyService } from '../tenancy/tenancy.service.js';
import { type CategoriesRepository, categoryAggregate } from './categories.repository.js';
import type { CategoryCreate, CategoryLocaleInput, CategoryUpdate } from './categories.schemas.js';

const notFound = () => errors.notFound('category');

const cleanIcon = (icon: string | null | undefined) => {
  if (icon === undefined || icon === null) return icon;
  const clean = sanitizeSvg(icon).trim();
  return clean === '' ? null : clean;
};

export function createCategoriesService(deps: { db: Db; repo: CategoriesRepository; tenancy: TenancyService }) {
  const { db, repo, tenancy } = deps;

  /** Locale entries must be in one of the media's languages. */
  const checkLocales = async (mediaId: string, entries: CategoryLocaleInput[]) => {
    const media = await tenancy.getMedia(mediaId);
    const details = entries
      .map((e, i) => ({ e, i }))
      .filter(({ e }) => !media.locales.includes(e.locale))
      .map(({ i }) => ({ path: `locales.${i}.locale`, message: `must be one of ${media.locales.join(', ')}` }));
    if (details.length > 0) throw errors.badRequest('unsupported_locale', 'a locale is not one of the media\'s languages', details);
  };

  const load = async (tx: Executor, mediaId: string, id: string) => {
    const row = await repo.find(tx, mediaId, id);
    if (!row) throw notFound();
    return row;
  };

  return {
    list: (mediaId: string, query: PagingQuery) => repo.list(db, mediaId, query),

    get: (mediaId: string, id: string) => load(db, mediaId, id),

    /** What readers see: live, not archived. */
    listPublished: (mediaId: string, query: PagingQuery) => repo.list(db, mediaId, query, 'published'),

    async getPublished(mediaId: string, id: string) {
      const row = await repo.find(db, mediaId, id, 'published');
      if (!row) throw notFound();
      return row;
    },

    async create(mediaId: string, input: CategoryCreate) {
      await checkLocales(mediaId, input.locales);
      return db.transaction(async (tx) => {
        const row = await repo.insert(tx, {
          mediaId,
          svgIcon: cleanIcon(input.svg_icon) ?? null,
          isArchived: input.is_archived ?? false,
        });
        await repo.insertLocales(
          tx,
          input.locales.map((l) => ({ categoryId: row.id, locale: l.locale, name: l.name, description: l.description ?? null })),
        );
        return load(tx, mediaId, row.id);
      });
    },

    /** Updates fields; `locales`, when given, is the complete set of live entries. */
    async update(mediaId: string, id: string, patch: CategoryUpdate) {
      if (patch.locales) await checkLocales(mediaId, patch.locales);
      return db.transaction(async (tx) => {
        if (!(await repo.lock(tx, mediaId, id))) throw notFound();
        await repo.update(tx, id, {
          ...(patch.svg_icon !== undefined && { svgIcon: cleanIcon(patch.svg_icon) }),
          ...(patch.is_archived !== undefined && { isArchived: patch.is_archived }),
        });
        if (patch.locales) {
          const current = new Map((await repo.liveLocales(tx, id)).map((l) => [l.locale, l.id]));
          await repo.deleteLocalesExcept(tx, id, patch.locales.map((l) => l.locale));
          const fresh = [];
          for (const entry of patch.locales) {
            const existingId = current.get(entry.locale);
            if (existingId) {
              await repo.updateLocale(tx, existingId, {
                name: entry.name,
                ...(entry.description !== undefined && { description: entry.description }),
              });
            } else {
              fresh.push({ categoryId: id, locale: entry.locale, name: entry.name, description: entry.description ?? null });
            }
          }
          await repo.insertLocales(tx, fresh);
        }
        return load(tx, mediaId, id);
      });
    },

    async remove(mediaId: string, id: string): Promise<void> {
      const deleted = await db.transaction((tx) => softDelete(tx, categoryAggregate, id, mediaId));
      if (!deleted) throw notFound();
    },

    async restore(mediaId: string, id: string) {
      return db.transaction(async (tx) => {
        const outcome = await restore(tx, categoryAggregate, id, mediaId);
        if (outcome === 'not_found') throw notFound();
        return load(tx, mediaId, id);
      });
    },
  };
}

export type CategoriesService = ReturnType<typeof createCategoriesService>;
