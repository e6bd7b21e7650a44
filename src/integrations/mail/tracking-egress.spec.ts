import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EgressDeniedError } from '../../common/http/egress-policy';
import { httpsFetcher } from './tracking';

describe('httpsFetcher (SNS certificates and subscription confirmations)', () => {
  let server: Server;
  let reached = 0;

  beforeAll(async () => {
    server = createServer((_request, response) => {
      reached++;
      response.end('-----BEGIN CERTIFICATE-----');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('goes through the egress policy: loopback, by address or by name, is refused without connecting', async () => {
    const { port } = server.address() as AddressInfo;
    await expect(httpsFetcher(`http://127.0.0.1:${port}/cert.pem`)).rejects.toThrow(EgressDeniedError);
    await expect(httpsFetcher(`http://localhost:${port}/cert.pem`)).rejects.toThrow(EgressDeniedError);
    await expect(httpsFetcher('http://169.254.169.254/latest/meta-data/')).rejects.toThrow(EgressDeniedError);
    expect(reached).toBe(0);
  });
});
