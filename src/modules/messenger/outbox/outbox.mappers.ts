import { iso, isoOrNull } from '../../../shared/time.js';
import type { MESSAGE_KINDS, OutboxState } from './outbox.schemas.js';
import type { OutboxSummaryRow } from './outbox.repository.js';

/** The Message-ID of an outbox message: its id at the sender's domain, the same on every attempt. */
export const messageIdOf = (id: string, domain: string) => `<${id}@${domain}>`;

export function outboxMappers(domain: string) {
  const toOutboxItem = (row: OutboxSummaryRow) => ({
    id: row.id,
    kind: row.kind as (typeof MESSAGE_KINDS)[number],
    newsletter_id: row.newsletterId,
    subscription_id: row.subscriptionId,
    to: row.recipients,
    subject: row.subject,
    state: row.state as OutboxState,
    attempts: row.attempts,
    last_error: row.lastError,
    message_id: messageIdOf(row.id, domain),
    sent_at: isoOrNull(row.sentAt),
    delivered_at: isoOrNull(row.deliveredAt),
    inserted_at: iso(row.insertedAt),
    updated_at: iso(row.updatedAt),
  });
  const toOutboxMessage = (row: OutboxSummaryRow & { html: string; text: string; headers: Record<string, string> | null }) => ({
    ...toOutboxItem(row),
    html: row.html,
    text: row.text,
    headers: row.headers ?? {},
  });
  return { toOutboxItem, toOutboxMessage };
}

export type OutboxMappers = ReturnType<typeof outboxMappers>;
