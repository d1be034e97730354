import { createServer } from 'node:net';

/** A start-up check that failed, said in one line. */
export class StartupError extends Error {}

export interface PortReservation {
  release(): Promise<void>;
}

/**
 * Takes the port before anything else is done (no database opened, no key created), and holds
 * it until the server listens: a busy port is the first thing reported. A connection arriving
 * meanwhile is closed at once, as if nothing listened yet.
 */
export async function reservePort(port: number, host: string): Promise<PortReservation> {
  const server = createServer((socket) => socket.destroy());
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ port, host, exclusive: true }, resolve);
    });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new StartupError(`port ${port} on ${host} is already in use; stop what listens there or set PORT`);
    if (code === 'EACCES') throw new StartupError(`port ${port} on ${host} needs privileges this process does not have; set PORT above 1023`);
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
      throw new StartupError(`HOST ${host} is not an address of this machine`);
    }
    throw err;
  }
  return { release: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
