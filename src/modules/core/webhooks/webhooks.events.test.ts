import { describe, expect, it } from 'vitest';
import { type RecordEffect, writeEffect } from '../../../shared/http/effects.js';
import { subscribes } from './webhooks.events.js';

const ID = '0190f5a0-0000-7000-8000-000000000001';
const CHILD = '0190f5a0-0000-7000-8000-000000000002';
const write = (effect: RecordEffect, method: string, statusCode: number, extra: Partial<Parameters<typeof writeEffect>[1]> = {}) =>
  writeEffect(effect, { method, statusCode, params: { id: ID }, answerId: undefined, ...extra });

describe('writeEffect: the record a write changed, from its declaration', () => {
  it('names a create by its declared kind and the answer id', () => {
    expect(write({ kind: 'media_block' }, 'POST', 201, { answerId: CHILD, params: {} })).toEqual({ kind: 'media_block', action: 'created', id: CHILD });
    expect(write({ kind: 'section' }, 'POST', 201, { answerId: CHILD })).toEqual({ kind: 'section', action: 'created', id: CHILD });
  });

  it('names updates, deletes and restores by the record the path names', () => {
    expect(write({ kind: 'person' }, 'PATCH', 200)).toEqual({ kind: 'person', action: 'updated', id: ID });
    expect(write({ kind: 'content' }, 'PUT', 200)).toEqual({ kind: 'content', action: 'updated', id: ID });
    expect(write({ kind: 'event' }, 'POST', 204)).toEqual({ kind: 'event', action: 'updated', id: ID });
    expect(write({ kind: 'status' }, 'DELETE', 204)).toEqual({ kind: 'status', action: 'deleted', id: ID });
    expect(write({ kind: 'category', action: 'restored' }, 'POST', 200)).toEqual({ kind: 'category', action: 'restored', id: ID });
    expect(write({ kind: 'block', param: 'block_id' }, 'DELETE', 204, { params: { id: ID, block_id: CHILD } })).toEqual({
      kind: 'block',
      action: 'deleted',
      id: CHILD,
    });
  });

  it('a 201 that answers no single record (a set added under a record) updates the record the path names', () => {
    expect(write({ kind: 'content' }, 'POST', 201)).toEqual({ kind: 'content', action: 'updated', id: ID });
  });

  it('names no record id when none is known (a bulk import without a parent)', () => {
    expect(write({ kind: 'subscription' }, 'POST', 200, { params: {} }).id).toBeUndefined();
  });
});

describe('subscribes', () => {
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
