import { createServer } from 'node:net';

/** Listens on `port` of 127.0.0.1 (0: any free one) just long enough to learn that it can, and which it got. */
const probePort = (port: number): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const { port: bound } = server.address() as { port: number };
      server.close(() => resolve(bound));
    });
  });

export const freePort = (): Promise<number> => probePort(0);

/** Whether `port` on 127.0.0.1 can be listened on right now. */
export const isPortFree = (port: number): Promise<boolean> =>
  probePort(port).then(
    () => true,
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') return false;
      throw error;
    },
  );

export const waitFor = async (probe: () => Promise<unknown>, what: string, timeoutMs = 60_000): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await probe();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`${what} did not come up within ${timeoutMs} ms: ${String(error)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
};
