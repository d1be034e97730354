import { describe, expect, it } from 'vitest';
import { kindOf, recordEventOf, subscribes } from './webhooks.events.js';

const ID = '0190f5a0-0000-7000-8000-000000000001';
const CHILD = '0190f5a0-0000-7000-8000-000000000002';
const write = (method: string, url: string, statusCode: number, extra: Partial<Parameters<typeof recordEventOf>[0]> = {}) =>
  recordEventOf({ method, url, statusCode, operationId: undefined, params: { id: ID }, answerId: undefined, ...extra });

describe('recordEventOf', () => {
  it('names a create by its collection and the answer id', () => {
    expect(write('POST', '/publisher/v2/media-blocks', 201, { answerId: CHILD, params: {} })).toEqual({ kind: 'media_block', action: 'created', id: CHILD });
    expect(write('POST', '/magazines/v2/issues/:id/sections', 201, { answerId: CHILD })).toEqual({ kind: 'section', action: 'created', id: CHILD });
  });

  it('names updates, deletes and restores by the record the path names', () => {
    expect(write('PATCH', '/community/v2/people/:id', 200)).toEqual({ kind: 'person', action: 'updated', id: ID });
    expect(write('PUT', '/docs/v2/contents/:id/blocks', 200)).toEqual({ kind: 'content', action: 'updated', id: ID });
    expect(write('POST', '/community/v2/events/:id/workspace/transfer', 204)).toEqual({ kind: 'event', action: 'updated', id: ID });
    expect(write('DELETE', '/core/v2/statuses/:id', 204)).toEqual({ kind: 'status', action: 'deleted', id: ID });
    expect(write('POST', '/core/v2/categories/:id/restore', 200)).toEqual({ kind: 'category', action: 'restored', id: ID });
    expect(write('DELETE', '/docs/v2/contents/:id/blocks/:block_id', 204, { params: { id: ID, block_id: CHILD } })).toEqual({
      kind: 'block',
      action: 'deleted',
      id: CHILD,
    });
  });

  it('names nothing when no record id is known (a bulk import without a parent)', () => {
    expect(write('POST', '/messenger/v2/subscriptions/bulk', 200, { params: {} })).toBeUndefined();
  });
});

describe('kindOf and subscribes', () => {
  it('singularises collection names', () => {
    expect(['categories', 'people', 'statuses', 'addresses', 'issues', 'api-keys', 'rss-feeds'].map(kindOf)).toEqual([
      'category',
      'person',
      'status',
      'address',
      'issue',
      'api_key',
      'rss_feed',
    ]);
  });

  it('matches exact names and * wildcards, purge only by name or *', () => {
    expect(subscribes(['category.created'], 'category.created')).toBe(true);
    expect(subscribes(['category.*'], 'category.deleted')).toBe(true);
    expect(subscribes(['*.deleted'], 'content.deleted')).toBe(true);
    expect(subscribes(['*'], 'purge')).toBe(true);
    expect(subscribes(['purge'], 'purge')).toBe(true);
    expect(subscribes(['*.deleted', 'content.*'], 'category.created')).toBe(false);
    expect(subscribes(['*.*'], 'purge')).toBe(false);
  });
});
