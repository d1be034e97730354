import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface SinkMessage {
  /** Envelope recipients. */
  to: string[];
  raw: string;
  parsed?: ParsedMail;
}

export interface SmtpSink {
  /** smtp://127.0.0.1:<port> */
  url: string;
  messages: SinkMessage[];
  /** Resolves once `count` messages have arrived (rejects after `timeoutMs`). */
  waitFor: (count: number, timeoutMs?: number) => Promise<void>;
  close: () => Promise<void>;
}

/**
 * A real SMTP server in the test process (smtp-server), keeping every message it accepts,
 * parsed with mailparser unless `parse` is false (thousands of messages).
 */
export async function startSmtpSink(options: { parse?: boolean } = {}): Promise<SmtpSink> {
  const parse = options.parse ?? true;
  const messages: SinkMessage[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const to = session.envelope.rcptTo.map((r) => r.address);
        const done = (parsed?: ParsedMail) => {
          messages.push({ to, raw, ...(parsed && { parsed }) });
          callback();
        };
        if (parse) simpleParser(raw).then(done, () => done());
        else done();
      });
    },
  });
  // A client killed mid-session (a service SIGKILLed while sending) resets its connection; smtp-server
  // re-emits that on the server, where no listener would make it the test process's uncaught error.
  server.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'ECONNRESET' && err.code !== 'EPIPE') throw err;
  });
  const port = await new Promise<number>((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve((server.server.address() as { port: number }).port));
  });
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    async waitFor(count, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (messages.length < count) {
        if (Date.now() > deadline) throw new Error(`smtp sink: ${messages.length} of ${count} messages after ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
