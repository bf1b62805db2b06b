// A local API Gateway in front of a Lambda handler: node:http requests become payload 1.0 (REST API)
// or 2.0 (HTTP API) events, the handler's result becomes the reply, as API Gateway maps them.
// Usage: node api-gateway.mjs <v1|v2> <module exporting handler>
import http from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [format, file] = process.argv.slice(2);
const { handler } = await import(pathToFileURL(path.resolve(file)).href);

function event(req, body) {
  const url = new URL(req.url, 'http://gateway');
  const headers = {};
  const multiValueHeaders = {};
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i].toLowerCase();
    (multiValueHeaders[name] ??= []).push(req.rawHeaders[i + 1]);
    headers[name] = headers[name] === undefined ? req.rawHeaders[i + 1] : `${headers[name]},${req.rawHeaders[i + 1]}`;
  }
  const sourceIp = req.socket.remoteAddress;
  const encoded = body.length > 0 ? { body: body.toString('base64'), isBase64Encoded: true } : { body: null, isBase64Encoded: false };
  if (format === 'v1') {
    const query = {};
    const multiQuery = {};
    for (const [k, v] of url.searchParams) { query[k] = v; (multiQuery[k] ??= []).push(v); }
    return {
      resource: '/{proxy+}', path: url.pathname, httpMethod: req.method, headers, multiValueHeaders,
      queryStringParameters: url.search ? query : null, multiValueQueryStringParameters: url.search ? multiQuery : null,
      requestContext: { httpMethod: req.method, path: url.pathname, identity: { sourceIp } }, ...encoded,
    };
  }
  return {
    version: '2.0', routeKey: '$default', rawPath: url.pathname, rawQueryString: url.search.slice(1), headers,
    requestContext: { http: { method: req.method, path: url.pathname, sourceIp } }, ...encoded,
  };
}

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', async () => {
    const result = await handler(event(req, Buffer.concat(chunks)));
    res.writeHead(result.statusCode, result.headers ?? {});
    res.end(result.isBase64Encoded ? Buffer.from(result.body, 'base64') : result.body ?? '');
  });
});
server.listen(0, '127.0.0.1', () => console.log(`listening http://127.0.0.1:${server.address().port}`));
