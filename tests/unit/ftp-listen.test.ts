import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { waitForFtpListening } from '../../features/ftp/agentListen';

/** The FTP op's wait for Pure-FTPd to accept on its port, against real sockets. */
const listening = async () => {
  const server = net.createServer((s) => s.destroy());
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return server;
};
const portOf = (server: net.Server) => (server.address() as net.AddressInfo).port;

describe('waiting for the FTP daemon to listen', () => {
  it('answers once the port accepts a connection', async () => {
    const server = await listening();
    await expect(waitForFtpListening(portOf(server), 2000)).resolves.toBeUndefined();
    server.close();
  });

  it('fails in clear words when nothing accepts within the bound', async () => {
    const server = await listening();
    const port = portOf(server);
    await new Promise((r) => server.close(r));
    await expect(waitForFtpListening(port, 300)).rejects.toThrow(
      `pure-ftpd was started but does not accept connections on port ${port} after 0.3 s`,
    );
  });
});
