/**
 * A forward proxy on 127.0.0.1 for the proxy tests, like a corporate one: plain forward requests
 * (`GET http://host/path`) for http URLs and CONNECT tunnels for https URLs. It resolves only the
 * host names it is given (to 127.0.0.1 ports), so a request that reaches such a name without the
 * proxy fails with "host not found". It records what it was asked, and the bytes clients sent it.
 */
import { createServer, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';

export interface ProxiedRequest {
  /** CONNECT, or the method of a forward request. */
  method: string;
  /** `host:port` for CONNECT, the absolute URL of a forward request. */
  target: string;
  headers: IncomingHttpHeaders;
}

export interface TestProxy {
  /** 'http://127.0.0.1:PORT' */
  url: string;
  requests: ProxiedRequest[];
  /** Everything clients sent it, tunnels included (the first few MB). */
  receivedBytes(): Buffer;
  close(): Promise<void>;
}

const MAX_RECORDED_BYTES = 8 * 1024 * 1024;

/** `names`: the host names it resolves, each to 127.0.0.1. */
export async function startTestProxy(names: readonly string[]): Promise<TestProxy> {
  const requests: ProxiedRequest[] = [];
  const received: Buffer[] = [];
  let receivedSize = 0;
  const sockets = new Set<Socket>();
  const resolves = (host: string): boolean => names.includes(host.toLowerCase());

  const server = createServer((incoming, response) => {
    const target = incoming.url ?? '';
    requests.push({ method: incoming.method ?? '', target, headers: incoming.headers });
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      response.writeHead(400).end('absolute-form URL expected');
      return;
    }
    if (!resolves(url.hostname)) {
      response.writeHead(502).end(`proxy: cannot resolve ${url.hostname}`);
      return;
    }
    const upstream = httpRequest(
      {
        host: '127.0.0.1',
        port: url.port,
        method: incoming.method,
        path: `${url.pathname}${url.search}`,
        headers: incoming.headers,
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.on('error', () => response.destroy());
    response.on('close', () => upstream.destroy());
    incoming.pipe(upstream);
  });

  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('data', (chunk: Buffer) => {
      if (receivedSize >= MAX_RECORDED_BYTES) return;
      received.push(chunk);
      receivedSize += chunk.length;
    });
  });

  server.on('connect', (incoming, client: Socket, head: Buffer) => {
    const target = incoming.url ?? '';
    requests.push({ method: 'CONNECT', target, headers: incoming.headers });
    const [host = '', port = ''] = target.split(/:(?=\d+$)/);
    if (!resolves(host)) {
      client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
      return;
    }
    const upstream = connect(Number(port), '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    receivedBytes: () => Buffer.concat(received),
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
