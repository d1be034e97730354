import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { pagingMeta } from '../../../shared/envelopes.js';
import { publicTwin } from '../../../shared/http/public.js';
import { fallbackOf, readerListQuery } from '../../../shared/http/reader.js';
import { route } from '../../../shared/http/route.js';
import { isoTimestamp, pagingMeta as pagingMetaSchema, uuid } from '../../../shared/schemas.js';
import type { ContentMappers } from '../../docs/index.js';
import { magazinesTags } from '../magazines.tags.js';
import type { IssuesService } from './issues.service.js';

/** Where the items' `_links` point: the Public docs group (spec 2.16). */
const PUBLIC_DOCS = '/api/public/docs/v2';

const nullableText = z.string().nullable();

/** Spec 2.16: a section content item of the deprecated Public interface. */
export const publicSectionContentSchema = z
  .object({
    _links: z.object({ _self: z.string(), template: z.string() }).describe('Paths under /api/public/docs/v2'),
    id: uuid,
    template_id: uuid,
    canonical_domain: nullableText,
    canonical_url: nullableText,
    visibility: z.string().describe('Always public: only published contents are served'),
    is_advertising: z.boolean(),
    is_sponsored: z.boolean(),
    show_published_at: z.boolean(),
    category_ids: z.array(uuid),
    localized: z.object({
      locale: nullableText,
      title_html: nullableText,
      title_text: nullableText,
      lead_html: nullableText,
      lead_text: nullableText,
      subtitle_html: nullableText,
      subtitle_text: nullableText,
      author_ids: z.array(uuid),
      seo: z.object({ title: nullableText, description: nullableText }),
      visual: z.object({
        type: z.string(),
        caption_html: nullableText,
        caption_text: nullableText,
        credit: nullableText,
        gravity: nullableText,
        url: nullableText,
      }),
    }),
    published_at: isoTimestamp,
    updated_at: isoTimestamp,
  })
  .meta({ id: 'PublicSectionContent' });

const listSchema = z.object({
  meta: pagingMetaSchema,
  data: z.array(publicSectionContentSchema),
  assocs: z.object({}).describe('Empty, as in spec 2.16'),
});

type ReaderContent = ReturnType<ContentMappers['toReaderContent']>;

/** The Reader's item, reshaped as spec 2.16 shows it: one mapping, so both interfaces serve the same contents. */
export function toPublicSectionContent(c: ReaderContent) {
  const v = c.visual;
  const media = v?.type === 'image' ? v.image : v?.type === 'video' ? v.video : v?.type === 'slideshow' ? (v.slideshow?.images[0] ?? null) : null;
  return {
    _links: { _self: `${PUBLIC_DOCS}/contents/${c.id}`, template: `${PUBLIC_DOCS}/templates/${c.template_id}` },
    id: c.id,
    template_id: c.template_id,
    canonical_domain: c.canonical_domain,
    canonical_url: c.canonical_url,
    visibility: 'public',
    is_advertising: c.is_advertising,
    is_sponsored: c.is_sponsored,
    show_published_at: c.show_publication_datetime,
    category_ids: c.category_ids,
    localized: {
      locale: c.locale,
      title_html: c.title_html,
      title_text: c.title_text,
      lead_html: c.lead_html,
      lead_text: c.lead_text,
      subtitle_html: c.subtitle_html,
      subtitle_text: c.subtitle_text,
      author_ids: c.author_ids,
      seo: { title: c.seo?.title ?? null, description: c.seo?.description ?? null },
      visual: {
        type: v?.type ?? 'none',
        caption_html: media?.caption_html ?? null,
        caption_text: media?.caption_text ?? null,
        credit: media?.credit ?? null,
        gravity: media && 'gravity' in media ? media.gravity : null,
        url: media?.url ?? null,
      },
    },
    // The Public API serves published contents only (never a preview), and those have published_at.
    published_at: c.published_at!,
    updated_at: c.updated_at,
  };
}

/** Public (deprecated): an issue, a section and a section's contents, the media taken from the issue or section. */
export const issuesPublicRoutes: FastifyPluginAsyncZod<{ issues: IssuesService; contentMappers: ContentMappers }> = async (
  app,
  { issues, contentMappers },
) => {
  publicTwin(app, {
    reader: 'readerGetIssue',
    url: '/docs/v2/issues/:id',
    operationId: 'publicGetIssue',
    media: { param: 'id', of: (id) => issues.issueMediaOf(id) },
    tag: magazinesTags.public,
  });
  publicTwin(app, {
    reader: 'readerGetSection',
    url: '/docs/v2/sections/:id',
    operationId: 'publicGetSection',
    media: { param: 'id', of: (id) => issues.sectionMediaOf(id) },
    tag: magazinesTags.public,
  });

  route(app, {
    method: 'GET',
    url: '/docs/v2/sections/:section_id/contents',
    operationId: 'publicSectionContents',
    serves: 'content',
    summary: 'Contents of a section',
    description: 'Deprecated: use the Reader operation GET /api/media/v1/sections/{id}/contents. Published contents in position order.',
    tag: magazinesTags.public,
    access: { anonymous: true },
    config: {
      successor: '/api/media/v1/sections/{section_id}/contents',
      publicMedia: { param: 'section_id', of: (id: string) => issues.sectionMediaOf(id) },
    },
    params: z.object({ section_id: uuid }),
    querystring: readerListQuery,
    response: { 200: listSchema },
    handler: async (ctx, { params, query }, reply) => {
      const page = await issues.publicSectionContents(ctx, params.section_id, query);
      const view = { locale: query.locale, fallback: fallbackOf(reply.request.media) };
      return {
        meta: pagingMeta(reply.request, page),
        data: page.items.map((row) => toPublicSectionContent(contentMappers.toReaderContent(row, view))),
        assocs: {},
      };
    },
  });
};
