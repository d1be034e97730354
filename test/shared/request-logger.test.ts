import { Writable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { requestLogger } from '../../src/logger.js';

/** A pino logger at `level` with the service's redaction, writing JSON lines to memory, counting its children. */
function logger(level: string) {
  const lines: Array<Record<string, unknown>> = [];
  const children = { made: 0 };
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)) as Record<string, unknown>);
      done();
    },
  });
  const log = pino(
    {
      level,
      redact: { paths: ['*.password'], censor: '[redacted]' },
      onChild: () => void children.made++,
    },
    stream,
  );
  return { log: log as FastifyBaseLogger, lines, children };
}

describe("a request's logger", () => {
  it('makes the child only when a line is written, and the line carries the bindings and the redaction', () => {
    const { log, lines, children } = logger('warn');
    const req = requestLogger(log, { reqId: 'r-1' }, {});
    req.info({ a: 1 }, 'not written at warn');
    req.debug('nor this');
    expect(req.level).toBe('warn');
    expect((req as FastifyBaseLogger & { isLevelEnabled(l: string): boolean }).isLevelEnabled('info')).toBe(false);
    expect((req as FastifyBaseLogger & { isLevelEnabled(l: string): boolean }).isLevelEnabled('error')).toBe(true);
    expect(children.made).toBe(0);
    expect(lines).toEqual([]);

    req.warn({ user: { password: 'hunter2' } }, 'slow');
    req.error('failed %s', 'twice');
    expect(children.made).toBe(1);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ level: 40, reqId: 'r-1', msg: 'slow', user: { password: '[redacted]' } });
    expect(lines[1]).toMatchObject({ level: 50, reqId: 'r-1', msg: 'failed twice' });
  });

  it("takes a level set on it, and a route's own level or serializers make the child at once", () => {
    const { log, lines, children } = logger('warn');
    const req = requestLogger(log, { reqId: 'r-2' }, {});
    req.level = 'info';
    req.info('now written');
    expect(log.level).toBe('warn');
    expect(lines).toEqual([expect.objectContaining({ level: 30, reqId: 'r-2', msg: 'now written' })]);

    requestLogger(log, { reqId: 'r-3' }, { level: 'debug' });
    expect(children.made).toBe(2);
  });

  it('gives its own children the bindings, and a silent logger is passed through', () => {
    const { log, lines } = logger('info');
    requestLogger(log, { reqId: 'r-4' }, {}).child({ job: 'j' }).info('nested');
    expect(lines).toEqual([expect.objectContaining({ reqId: 'r-4', job: 'j', msg: 'nested' })]);

    const silent = logger('silent').log;
    expect(requestLogger(silent, { reqId: 'r-5' }, {})).toBe(silent);
  });
});
