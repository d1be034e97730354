import type { LocaleFallback } from '../../../shared/http/reader.js';
import type { RequestContext } from '../../../shared/context.js';
import { esc, layout } from '../messenger.render.js';
import type { PublishedContent } from '../newsletters/newsletters.service.js';
import type { OutboxService } from '../outbox/outbox.service.js';
import type { MailerSend } from './mailer.schemas.js';

const paragraphs = (text: string) =>
  text
    .split(/\n{2,}/)
    .map((p) => `<p>${esc(p).replace(/\n/g, '<br>')}</p>`)
    .join('');

/**
 * The mailer: one message from one of the media's templates, through the outbox and the send
 * queue like every other message. Every field a client sends is rendered as text, never HTML.
 */
export function createMailerService(deps: {
  outbox: OutboxService;
  publishedContent: (ctx: RequestContext, id: string, locale: string | undefined, fallback: LocaleFallback) => Promise<PublishedContent>;
  fallbackOf: (ctx: RequestContext) => Promise<LocaleFallback>;
  kick: (ctx: RequestContext) => Promise<void>;
}) {
  const render = async (ctx: RequestContext, input: MailerSend) => {
    if (input.template === 'contact') {
      return {
        subject: input.subject,
        headers: { 'Reply-To': input.email } as Record<string, string>,
        html: layout(input.subject, `<p>Message from ${esc(input.name)} &lt;${esc(input.email)}&gt;:</p>${paragraphs(input.message)}`),
        text: `Message from ${input.name} <${input.email}>:\n\n${input.message}\n`,
      };
    }
    const content = await deps.publishedContent(ctx, input.content_id, input.locale, await deps.fallbackOf(ctx));
    const title = content.title_text ?? 'An article';
    const who = input.sender_name ?? 'Someone';
    const link = content.canonical_url;
    return {
      subject: `${who} shares "${title}" with you`,
      headers: {} as Record<string, string>,
      html: layout(
        title,
        `<p>${esc(who)} thought you would like this:</p><h1>${esc(title)}</h1>` +
          (content.lead_text ? `<p>${esc(content.lead_text)}</p>` : '') +
          (input.message ? `<blockquote>${paragraphs(input.message)}</blockquote>` : '') +
          (link ? `<p><a href="${esc(link)}">Read it</a></p>` : ''),
      ),
      text:
        `${who} thought you would like this:\n\n${title}\n` +
        (content.lead_text ? `\n${content.lead_text}\n` : '') +
        (input.message ? `\n${input.message}\n` : '') +
        (link ? `\nRead it: ${link}\n` : ''),
    };
  };

  return {
    async send(ctx: RequestContext, input: MailerSend) {
      const mail = await render(ctx, input);
      const row = await deps.outbox.enqueue(ctx.db, {
        mediaId: ctx.mediaId,
        kind: 'mailer',
        recipients: input.to,
        subject: mail.subject,
        html: mail.html,
        text: mail.text,
        headers: mail.headers,
        state: 'queued',
      });
      await deps.kick(ctx);
      return row;
    },
  };
}

export type MailerService = ReturnType<typeof createMailerService>;
