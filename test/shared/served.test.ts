import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { unservedAnswers } from '../setup/served.js';

const dir = mkdtempSync(join(tmpdir(), 'mps-served-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the JSON success answers no test made (checked after a whole run)', () => {
  it('lists the document’s JSON 2xx answers that no worker noted, by route pattern; a 204 and a non-JSON answer are not asked for', () => {
    const document = join(dir, 'openapi.json');
    const json = { content: { 'application/json': {} } };
    writeFileSync(
      document,
      JSON.stringify({
        paths: {
          '/things': { get: { responses: { '200': json, '400': json } }, post: { responses: { '201': json } } },
          '/things/{id}': { get: { responses: { '200': json } }, delete: { responses: { '204': json } } },
          '/things/{id}/feed.xml': { get: { responses: { '200': { content: { 'application/rss+xml': {} } } } } },
        },
      }),
    );
    const noted = join(dir, 'noted');
    rmSync(noted, { recursive: true, force: true });
    mkdirSync(noted);
    writeFileSync(join(noted, '1.txt'), 'GET /things 200\nHEAD /things 200\n');
    writeFileSync(join(noted, '2.txt'), 'GET /things/:id 200\n');
    expect(unservedAnswers(noted, document)).toEqual(['POST /things 201']);
    writeFileSync(join(noted, '2.txt'), 'GET /things/:id 200\nPOST /things 201\n');
    expect(unservedAnswers(noted, document)).toEqual([]);
  });
});
