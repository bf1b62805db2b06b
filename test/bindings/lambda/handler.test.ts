/**
 * What is particular to the Lambda binding (the shared behaviour runs over it through BINDINGS, as
 * payload 2.0 events): REST API 1.0 events, function URLs, base64 bodies, a stage as basePath, the
 * result shape, and that the aws-lambda event types are accepted as they are.
 */
import type { APIGatewayProxyEvent, APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { createLambdaHandler, type LambdaHandlerOptions } from 'crossborder-merchant-kit/lambda';
import { MERCHANT_GUID, OTHER_GUID, order } from '../../helpers/orders.js';
import { recordingAdapter } from '../../helpers/recording.js';

const base = (extra: Partial<LambdaHandlerOptions> = {}): LambdaHandlerOptions =>
  ({ merchantGuid: MERCHANT_GUID, adapter: recordingAdapter(), logger: false, ...extra }) as LambdaHandlerOptions;

const v2 = (over: Partial<APIGatewayProxyEventV2> = {}): APIGatewayProxyEventV2 => ({
  version: '2.0', routeKey: '$default', rawPath: '/prod/SendOrderToMerchant', rawQueryString: '',
  headers: { 'content-type': 'application/json' }, isBase64Encoded: false, body: JSON.stringify(order()),
  requestContext: {
    accountId: '1', apiId: 'a', domainName: 'x', domainPrefix: 'x', requestId: 'r', routeKey: '$default', stage: 'prod',
    time: '', timeEpoch: 0, http: { method: 'POST', path: '/prod/SendOrderToMerchant', protocol: 'HTTP/1.1', sourceIp: '198.51.100.4', userAgent: 'x' },
  },
  ...over,
});

const v1 = (over: Partial<APIGatewayProxyEvent> = {}): APIGatewayProxyEvent => ({
  resource: '/{proxy+}', path: '/GetCheckoutCartInfo', httpMethod: 'GET', headers: { Accept: 'application/json' },
  multiValueHeaders: {}, queryStringParameters: { merchantCartToken: 'one' },
  multiValueQueryStringParameters: { merchantCartToken: ['one'] }, pathParameters: null, stageVariables: null,
  body: null, isBase64Encoded: false,
  requestContext: { identity: { sourceIp: '192.0.2.8' } } as APIGatewayProxyEvent['requestContext'],
  ...over,
});

describe('createLambdaHandler', () => {
  test('an HTTP API (2.0) event under a stage prefix: { statusCode, headers, body } and the sourceIp as remoteAddress', async () => {
    const adapter = recordingAdapter();
    const handler = createLambdaHandler(base({ adapter, basePath: '/prod' }));
    const result = await handler(v2());
    expect(result.statusCode).toBe(200);
    expect(result.headers['content-type']).toMatch(/^application\/json/);
    expect(result.headers['cache-control']).toBe('no-store');
    expect(JSON.parse(result.body)).toMatchObject({ Success: true });
    expect(result.isBase64Encoded).toBe(false);
    expect(adapter.calls[0].context.remoteAddress).toBe('198.51.100.4');
  });

  test('a base64 body (isBase64Encoded) is decoded', async () => {
    const adapter = recordingAdapter();
    const handler = createLambdaHandler(base({ adapter, basePath: '/prod' }));
    const body = Buffer.from(JSON.stringify(order({ OrderId: 'B64-1' }))).toString('base64');
    const result = await handler(v2({ body, isBase64Encoded: true }));
    expect(result.statusCode).toBe(200);
    expect(adapter.calls[0].input.OrderId).toBe('B64-1');
  });

  test('a lone surrogate in the body: escaped, refused 400; as itself in the event\'s string, read as UTF-8 bytes are (U+FFFD)', async () => {
    const adapter = recordingAdapter();
    const handler = createLambdaHandler(base({ adapter, basePath: '/prod' }));
    const withNote = (orderId: string, note: string) => JSON.stringify(order({ OrderId: orderId })).replace(/}$/, `,"CustomerComments":"${note}"}`);
    const escaped = await handler(v2({ body: withNote('LONE-1', 'a\\ud800b') }));
    expect(escaped.statusCode).toBe(400);
    expect(JSON.parse(escaped.body).Description).toBe('The request body has ill-formed Unicode (a lone surrogate)');
    expect((await handler(v2({ body: withNote('LONE-2', 'a\ud800b') }))).statusCode).toBe(200);
    expect(adapter.calls.map((c) => c.input.CustomerComments)).toEqual(['a\ufffdb']);
  });

  test('a body over the limit is 413, base64 or not', async () => {
    const handler = createLambdaHandler(base({ basePath: '/prod', bodyLimit: 1000 }));
    const big = JSON.stringify(order({ Note: 'x'.repeat(2000) }));
    expect((await handler(v2({ body: big }))).statusCode).toBe(413);
    expect((await handler(v2({ body: Buffer.from(big).toString('base64'), isBase64Encoded: true }))).statusCode).toBe(413);
    const multiByte = '"' + 'é'.repeat(600) + '"'; // 602 characters, 1,202 bytes
    expect((await handler(v2({ body: multiByte }))).statusCode).toBe(413);
  });

  test('a REST API (1.0) GET: path, multi-value query parameters, mixed-case headers, identity.sourceIp', async () => {
    const adapter = recordingAdapter();
    const handler = createLambdaHandler(base({ adapter }));
    const result = await handler(v1());
    expect(result.statusCode).toBe(200);
    expect(adapter.calls[0].input.merchantCartToken).toBe('one');
    expect(adapter.calls[0].context.remoteAddress).toBe('192.0.2.8');
    expect(adapter.calls[0].context.headers.accept).toBe('application/json');
  });

  test('a REST API (1.0) POST whose headers come only in multiValueHeaders (repeated ones joined)', async () => {
    const adapter = recordingAdapter();
    const handler = createLambdaHandler(base({ adapter }));
    const result = await handler(v1({
      httpMethod: 'POST', path: '/SendOrderToMerchant', headers: null as never, queryStringParameters: null, multiValueQueryStringParameters: null,
      multiValueHeaders: { 'Content-Type': ['application/json'], 'X-Trace': ['a', 'b'] }, body: JSON.stringify(order()),
    }));
    expect(result.statusCode).toBe(200);
    expect(adapter.calls[0].context.headers['x-trace']).toBe('a, b');
  });

  describe('a credential given twice (a wrong one, then the right one) is refused 401, as on every other binding', () => {
    const post = { httpMethod: 'POST', path: '/SendOrderToMerchant', body: JSON.stringify(order({ MerchantGUID: undefined })) };
    test('REST API (1.0): two header spellings, MerchantGUID and merchantguid, each whole in multiValueHeaders', async () => {
      const adapter = recordingAdapter();
      const result = await createLambdaHandler(base({ adapter }))(v1({
        ...post,
        headers: { 'Content-Type': 'application/json', MerchantGUID: OTHER_GUID, merchantguid: MERCHANT_GUID },
        multiValueHeaders: { 'Content-Type': ['application/json'], MerchantGUID: [OTHER_GUID], merchantguid: [MERCHANT_GUID] },
        queryStringParameters: null, multiValueQueryStringParameters: null,
      }));
      expect(result.statusCode).toBe(401);
      expect(adapter.calls).toHaveLength(0);
    });
    test('REST API (1.0) without multiValueHeaders, and HTTP API (2.0): two spellings in headers', async () => {
      const headers = { 'content-type': 'application/json', MerchantGUID: OTHER_GUID, merchantguid: MERCHANT_GUID };
      const adapter = recordingAdapter();
      const handler = createLambdaHandler(base({ adapter }));
      expect((await handler(v1({ ...post, headers, multiValueHeaders: undefined as never, queryStringParameters: null, multiValueQueryStringParameters: null }))).statusCode).toBe(401);
      expect((await createLambdaHandler(base({ adapter, basePath: '/prod' }))(v2({ headers, body: post.body }))).statusCode).toBe(401);
      expect(adapter.calls).toHaveLength(0);
    });
    test('REST API (1.0): the query parameter twice (queryStringParameters keeps only the last), read from multiValueQueryStringParameters', async () => {
      const adapter = recordingAdapter();
      const result = await createLambdaHandler(base({ adapter }))(v1({
        ...post, headers: { 'Content-Type': 'application/json' }, multiValueHeaders: { 'Content-Type': ['application/json'] },
        queryStringParameters: { MerchantGUID: MERCHANT_GUID }, multiValueQueryStringParameters: { MerchantGUID: [OTHER_GUID, MERCHANT_GUID] },
      }));
      expect(result.statusCode).toBe(401);
      expect(adapter.calls).toHaveLength(0);
    });
    test('spellings of any header are joined in order; empty and missing entries are no header', async () => {
      const adapter = recordingAdapter();
      const handler = createLambdaHandler(base({ adapter }));
      let n = 0;
      const event = (over: Partial<APIGatewayProxyEvent>) => v1({ ...post, body: JSON.stringify(order({ OrderId: `GE-HDR-${++n}` })), queryStringParameters: null, multiValueQueryStringParameters: null, ...over });
      expect((await handler(event({
        headers: { 'Content-Type': 'application/json', 'X-Trace': 'a', 'x-trace': 'b', 'X-Gone': undefined } as never,
        multiValueHeaders: { 'Content-Type': ['application/json'], 'X-Trace': ['a'], 'x-trace': ['b', 'c'], 'X-Empty': [], 'X-Gone': undefined } as never,
      }))).statusCode).toBe(200);
      expect((await handler(event({
        headers: { 'content-type': 'application/json', 'X-Trace': 'a', 'x-trace': 'b', 'X-Gone': undefined } as never, multiValueHeaders: undefined as never,
      }))).statusCode).toBe(200);
      const seen = adapter.calls.map((c) => c.context.headers);
      expect(seen.map((h) => h['x-trace'])).toEqual(['a, b, c', 'a, b']);
      for (const h of seen) expect(['x-empty', 'x-gone'].filter((n) => n in h)).toEqual([]);
    });
    test('the right one alone, in either place, is accepted (200)', async () => {
      const handler = createLambdaHandler(base());
      expect((await handler(v1({ ...post, headers: { 'Content-Type': 'application/json', MerchantGUID: MERCHANT_GUID },
        multiValueHeaders: { 'Content-Type': ['application/json'], MerchantGUID: [MERCHANT_GUID] }, queryStringParameters: null, multiValueQueryStringParameters: null }))).statusCode).toBe(200);
    });
  });

  test('a function URL event (2.0, no stage) and case/trailing-slash matching as Express does', async () => {
    const handler = createLambdaHandler(base());
    const event = v2({ rawPath: '/sendordertomerchant/' });
    expect((await handler(event)).statusCode).toBe(200);
  });

  test('unmatched method or path: JSON 404', async () => {
    const handler = createLambdaHandler(base({ basePath: '/prod' }));
    for (const event of [v2({ rawPath: '/SendOrderToMerchant' }), v2({ rawPath: '/prod/Nope' }),
      v2({ requestContext: { ...v2().requestContext, http: { ...v2().requestContext.http, method: 'PUT' } } })]) {
      const result = await handler(event);
      expect(result.statusCode).toBe(404);
      expect(JSON.parse(result.body)).toMatchObject({ Success: false, ErrorCode: 'NOT_FOUND' });
    }
  });

  test('the handler is a plain async (event) => result, usable as the exported handler', async () => {
    const handler = createLambdaHandler(base());
    const awsStyle: (event: APIGatewayProxyEventV2, context?: Context) => Promise<{ statusCode: number }> = handler;
    expect((await awsStyle(v2({ rawPath: '/SendOrderToMerchant' }))).statusCode).toBe(200);
  });

  test('basePath is checked at construction', () => {
    expect(() => createLambdaHandler(base({ basePath: 'prod' }))).toThrow(expect.objectContaining({ code: 'ERR_CBK_OPTION_INVALID' }));
  });
});
