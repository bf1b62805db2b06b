// Serves a Next.js route module (its GET/POST exports: (Request) => Response) on node:http, as the
// App Router calls them; the runtime matrix (.ci/runtimes.mjs) uses it for the Node rows.
// Usage: node serve-route.mjs <route module>
import http from 'node:http';
import { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import path from 'node:path';

const route = await import(pathToFileURL(path.resolve(process.argv[2])).href);

const server = http.createServer(async (req, res) => {
  const handler = route[req.method ?? 'GET'];
  if (typeof handler !== 'function') { res.writeHead(405).end(); return; }
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  const request = new Request(`http://${req.headers.host}${req.url}`, {
    method: req.method, headers, ...(hasBody ? { body: Readable.toWeb(req), duplex: 'half' } : {}),
  });
  const response = await handler(request);
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(Buffer.from(await response.arrayBuffer()));
});
server.listen(0, '127.0.0.1', () => console.log(`listening http://127.0.0.1:${server.address().port}`));
