import type { LocaleFallback } from '../../../shared/http/reader.js';
import type { Executor } from '../../../db/client.js';
import { type RequestContext, transaction } from '../../../shared/context.js';
import type { Page } from '../../../shared/paging.js';
import type { PagingQuery } from '../../../shared/schemas.js';
import type { MailingListsService } from '../mailing-lists/mailing-lists.record.js';
import { messengerErrors } from '../messenger.errors.js';
import { esc, layout } from '../messenger.render.js';
import type { OutboxService } from '../outbox/outbox.service.js';
import type { NewsletterWithCounts } from './newsletters.mappers.js';
import type { NewsletterRow, NewslettersRepository } from './newsletters.repository.js';
import type { NewsletterCreate } from './newsletters.schemas.js';

/** A published content as docs serves it to readers, the fields a newsletter renders. */
export interface PublishedContent {
  locale: string | null;
  title_html: string | null;
  title_text: string | null;
  lead_html: string | null;
  lead_text: string | null;
  canonical_url: string | null;
  blocks: Array<{ kind: string; content_html?: string; content_text?: string; image?: { url: string; alt?: string | null } | null }>;
}

export interface NewsletterDeps {
  repo: NewslettersRepository;
  mailingLists: MailingListsService;
  outbox: OutboxService;
  /** docs' rendering of a published content (404 content_not_found otherwise). */
  publishedContent: (ctx: RequestContext, id: string, locale: string | undefined, fallback: LocaleFallback) => Promise<PublishedContent>;
  fallbackOf: (ctx: RequestContext) => Promise<LocaleFallback>;
  /** Asks for a send run once the context's transaction has committed. */
  kick: (ctx: RequestContext) => Promise<void>;
}

/** The newsletter's body, HTML and text: title, lead, then the blocks that read as text or pictures. */
export function renderContent(content: PublishedContent): { html: string; text: string } {
  const html: string[] = [];
  const text: string[] = [];
  if (content.title_html) html.push(`<h1>${content.title_html}</h1>`);
  if (content.title_text) text.push(content.title_text, '');
  if (content.lead_html) html.push(`<div style="font-weight:bold">${content.lead_html}</div>`);
  if (content.lead_text) text.push(content.lead_text, '');
  for (const block of content.blocks) {
    if (block.content_html !== undefined) {
      html.push(block.kind === 'quote' ? `<blockquote>${block.content_html}</blockquote>` : `<div>${block.content_html}</div>`);
      if (block.content_text) text.push(block.content_text, '');
    } else if (block.kind === 'image' && block.image) {
      html.push(`<p><img src="${esc(block.image.url)}" alt="${esc(block.image.alt ?? '')}" style="max-width:100%"></p>`);
    }
  }
  if (content.canonical_url) {
    html.push(`<p><a href="${esc(content.canonical_url)}">Read online</a></p>`);
    text.push(`Read online: ${content.canonical_url}`);
  }
  return { html: html.join('\n'), text: text.join('\n') };
}

export function createNewslettersService(deps: NewsletterDeps) {
  const { repo, outbox } = deps;

  const withCounts = async (executor: Executor, rows: NewsletterRow[]): Promise<NewsletterWithCounts[]> => {
    const counts = await outbox.countsByNewsletter(executor, rows.map((r) => r.id));
    return rows.map((row) => ({ ...row, counts: counts.get(row.id) ?? {} }));
  };

  return {
    async listByList(ctx: RequestContext, listId: string, query: PagingQuery): Promise<Page<NewsletterWithCounts>> {
      if (!(await deps.mailingLists.find(ctx.db, ctx.mediaId, listId))) throw messengerErrors.mailingListNotFound();
      const page = await repo.listByList(ctx.db, ctx.mediaId, listId, query);
      return { ...page, items: await withCounts(ctx.db, page.items) };
    },

    async get(ctx: RequestContext, id: string): Promise<NewsletterWithCounts> {
      const row = await repo.find(ctx.db, ctx.mediaId, id);
      if (!row) throw messengerErrors.newsletterNotFound();
      return (await withCounts(ctx.db, [row]))[0]!;
    },

    /**
     * Renders the published content once and queues one message for every subscribed address
     * of the list, in one transaction; the send queue takes it from there.
     */
    async send(ctx: RequestContext, listId: string, input: NewsletterCreate): Promise<NewsletterWithCounts> {
      if (!(await deps.mailingLists.find(ctx.db, ctx.mediaId, listId))) throw messengerErrors.mailingListNotFound();
      const content = await deps.publishedContent(ctx, input.content_id, input.locale, await deps.fallbackOf(ctx));
      const body = renderContent(content);
      const subject = input.subject ?? content.title_text ?? 'Newsletter';
      const row = await transaction(ctx, async (tx) => {
        const newsletter = await repo.insert(tx, {
          mediaId: ctx.mediaId,
          mailingListId: listId,
          contentId: input.content_id,
          locale: content.locale,
          subject,
          html: layout(subject, body.html),
          text: body.text,
        });
        await outbox.fanOut(tx, ctx.mediaId, newsletter.id, listId);
        return newsletter;
      });
      await deps.kick(ctx);
      return (await withCounts(ctx.db, [row]))[0]!;
    },
  };
}

export type NewslettersService = ReturnType<typeof createNewslettersService>;
