import { createServer, type Server, type Socket } from 'node:net';
import { FrozenServerClient } from './frozen-server-client';

const READ_TIMEOUT_MS = 300;

/** A PostgreSQL protocol message: type byte, length, body. */
function message(type: string, body: Buffer = Buffer.alloc(0)): Buffer {
  const header = Buffer.alloc(5);
  header.write(type, 0, 'latin1');
  header.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([header, body]);
}
const READY = message('Z', Buffer.from('I'));
const AUTHENTICATION_OK = message('R', Buffer.alloc(4));
const COMMAND_COMPLETE = message('C', Buffer.from('SELECT 0\0'));

/**
 * A server that lets any client in, then answers each simple query after `answerAfterMs`, or never
 * when that is null: just enough of the protocol for a pg client.
 */
async function fakeServer(answerAfterMs: number | null): Promise<{ server: Server; port: number }> {
  const server = createServer((socket: Socket) => {
    let started = false;
    socket.on('data', (chunk) => {
      if (!started) {
        started = true;
        socket.write(Buffer.concat([AUTHENTICATION_OK, READY]));
        return;
      }
      if (chunk[0] === 'Q'.charCodeAt(0) && answerAfterMs !== null)
        setTimeout(() => socket.write(Buffer.concat([COMMAND_COMPLETE, READY])), answerAfterMs);
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return { server, port: typeof address === 'object' && address ? address.port : 0 };
}

async function connectedClient(port: number): Promise<FrozenServerClient> {
  const client = new FrozenServerClient({ host: '127.0.0.1', port, user: 'test', database: 'test', readTimeoutMillis: READ_TIMEOUT_MS });
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

describe('FrozenServerClient', () => {
  const servers: Server[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
  });

  it('drops the connection of a query that hears nothing for the read timeout: the query fails as a terminated connection', async () => {
    const { server, port } = await fakeServer(null);
    servers.push(server);
    const client = await connectedClient(port);
    const started = Date.now();
    await expect(client.query('SELECT 1')).rejects.toThrow(/^Connection terminated/);
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(READ_TIMEOUT_MS);
    // Room for a loaded machine's late timers; without the watchdog the query never ends.
    expect(elapsed).toBeLessThan(READ_TIMEOUT_MS + 5000);
  });

  it('keeps a connection whose queries are answered within the read timeout, however long it then stays idle', async () => {
    const { server, port } = await fakeServer(100);
    servers.push(server);
    const client = await connectedClient(port);
    await expect(client.query('SELECT 1')).resolves.toMatchObject({ command: 'SELECT' });
    await new Promise((resolve) => setTimeout(resolve, 2 * READ_TIMEOUT_MS + 300));
    await expect(client.query('SELECT 1')).resolves.toMatchObject({ command: 'SELECT' });
    await client.end();
  });
});
