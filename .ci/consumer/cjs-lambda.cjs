// CommonJS: require() of /lambda (no AWS SDK, no framework), invoked with an HTTP API (2.0) event.
const { createLambdaHandler } = require('crossborder-merchant-kit/lambda');
const { buildOrder, TEST_MERCHANT_GUID } = require('crossborder-merchant-kit/testing');

const handler = createLambdaHandler({
  merchantGuid: TEST_MERCHANT_GUID, basePath: '/prod', logger: false,
  adapter: { sendOrderToMerchant: (o) => ({ InternalOrderId: `lambda-${o.OrderId}` }), updateOrderStatus: () => {} },
});
const order = buildOrder();
handler({
  version: '2.0', rawPath: '/prod/SendOrderToMerchant', rawQueryString: '',
  headers: { 'content-type': 'application/json' },
  requestContext: { http: { method: 'POST', path: '/prod/SendOrderToMerchant', sourceIp: '198.51.100.1' } },
  body: Buffer.from(JSON.stringify(order)).toString('base64'), isBase64Encoded: true,
}).then((result) => {
  const body = JSON.parse(result.body);
  if (result.statusCode !== 200 || body.InternalOrderId !== `lambda-${order.OrderId}`) {
    throw new Error(`lambda handler answered ${result.statusCode} ${result.body}`);
  }
  console.log('ok: CommonJS require() of /lambda (an API Gateway 2.0 event answered)');
}).catch((err) => { console.error(err); process.exit(1); });
