import { describe, expect, it } from 'vitest';
import xxhash from 'xxhash-wasm';
import { etagOf, etagsReady } from '../../src/shared/http/conditional.js';

const { h64Raw } = await xxhash();
await etagsReady;
/** The library's one-shot hash of a whole buffer, in the tag's 16 hex digits. */
const reference = (bytes: Buffer) => h64Raw(bytes).toString(16).padStart(16, '0');

describe('etagOf', () => {
  it("is xxHash64 with seed 0 (the algorithm's published vectors)", () => {
    expect(etagOf('')).toBe('"ef46db3751d8e999"');
    expect(etagOf('a')).toBe('"d24ec4f1a98c6e5b"');
    expect(etagOf('abc')).toBe('"44bc2cf5ad770999"');
    // A hash with leading zero digits keeps all 16.
    for (let i = 0; i < 2000; i++) expect(etagOf(String(i))).toMatch(/^"[0-9a-f]{16}"$/);
  });

  it('hashes a Latin-1 string one byte a character, anything else as UTF-8 bytes marked u', () => {
    expect(etagOf('Économie')).toBe(`"${reference(Buffer.from('Économie', 'latin1'))}"`);
    expect(etagOf('Économie')).not.toBe(`"${reference(Buffer.from('Économie', 'utf8'))}"`);
    expect(etagOf('東京 😀')).toBe(`"u${reference(Buffer.from('東京 😀', 'utf8'))}"`);
    const bytes = Buffer.from('{"a":1}');
    expect(etagOf(bytes)).toBe(`"u${reference(bytes)}"`);
    // The same characters as a string and as bytes are two kinds of tag, never equal.
    expect(etagOf('{"a":1}')).not.toBe(etagOf(bytes));
  });

  it('gives the one-shot hash of the whole body for bodies past its buffers, and after them for small ones', () => {
    const latin = 'Économie, société. '.repeat(120_000); // 2.3 MB: hashed in chunks
    const wide = '東京 😀 Économie '.repeat(10_000); // 150 KB of characters, past the first buffer
    const mid = 'x'.repeat(300_000); // grows the buffer
    const bytes = Buffer.alloc(3 * 1024 * 1024 + 17, 7);
    expect(etagOf(latin)).toBe(`"${reference(Buffer.from(latin, 'latin1'))}"`);
    expect(etagOf(wide)).toBe(`"u${reference(Buffer.from(wide, 'utf8'))}"`);
    expect(etagOf(mid)).toBe(`"${reference(Buffer.from(mid, 'latin1'))}"`);
    expect(etagOf(bytes)).toBe(`"u${reference(bytes)}"`);
    // A short body after a long one: no byte of the long one is left in what is hashed.
    expect(etagOf('abc')).toBe('"44bc2cf5ad770999"');
    expect(etagOf(latin.slice(0, 10))).toBe(`"${reference(Buffer.from(latin.slice(0, 10), 'latin1'))}"`);
  });
});
