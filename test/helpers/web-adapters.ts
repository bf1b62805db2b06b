/**
 * Serves the bindings that do not take a node:http request on a node:http server, for supertest and
 * the conformance checker: a fetch handler (IncomingMessage → Request, Response → ServerResponse) and a
 * Lambda handler (IncomingMessage → API Gateway payload 2.0 event, result → ServerResponse).
 */
import http from 'node:http';
import { Readable } from 'node:stream';
import type { FetchHandler } from 'crossborder-merchant-kit/fetch';
import type { LambdaHandler, LambdaHttpEvent } from 'crossborder-merchant-kit/lambda';

function webHeaders(raw: string[]): Headers {
  const headers = new Headers();
  for (let i = 0; i < raw.length; i += 2) headers.append(raw[i], raw[i + 1]);
  return headers;
}

/** A node:http server in front of a fetch handler, as Bun.serve or Deno.serve would call it. */
export function serveFetch(handle: FetchHandler): http.Server {
  return http.createServer((req, res) => {
    let request: Request;
    try {
      const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
      request = new Request(`http://${req.headers.host ?? 'localhost'}${req.url}`, {
        method: req.method, headers: webHeaders(req.rawHeaders),
        body: hasBody ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : undefined,
        ...(hasBody ? { duplex: 'half' } : {}),
      } as RequestInit);
    } catch {
      res.writeHead(400).end(); // what a web server does with a request it cannot represent
      return;
    }
    void handle(request, { remoteAddress: req.socket.remoteAddress }).then(async (response) => {
      const body = Buffer.from(await response.arrayBuffer());
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(body);
    });
  });
}

/** The payload 2.0 event API Gateway's HTTP API would hand to the function for this request. */
export function toLambdaEvent(req: http.IncomingMessage, body: Buffer): LambdaHttpEvent {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined && name !== 'cookie') headers[name] = Array.isArray(value) ? value.join(',') : value;
  }
  return {
    version: '2.0',
    rawPath: q < 0 ? url : url.slice(0, q),
    rawQueryString: q < 0 ? '' : url.slice(q + 1),
    headers,
    ...(req.headers.cookie ? { cookies: req.headers.cookie.split('; ') } : {}),
    requestContext: { http: { method: req.method ?? 'GET', path: url, sourceIp: req.socket.remoteAddress ?? '' } },
    ...(body.length > 0 ? { body: body.toString('base64'), isBase64Encoded: true } : { isBase64Encoded: false }),
  };
}

/** A node:http server in front of a Lambda handler, as API Gateway would invoke it. */
export function serveLambda(handle: LambdaHandler): http.Server {
  return http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void handle(toLambdaEvent(req, Buffer.concat(chunks))).then((result) => {
        res.writeHead(result.statusCode, result.headers);
        res.end(result.body);
      });
    });
  });
}
