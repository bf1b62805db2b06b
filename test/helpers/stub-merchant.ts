/**
 * A merchant stand-in for sandbox tests: accepts every callback at the router's default paths under
 * /crossborder (Success true, InternalOrderId M-1, and PaymentAmount 59.90 EUR when the order carries
 * PaymentDetails); 404 with Success false anywhere else.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

const KNOWN = /^\/crossborder\/(SendOrderToMerchant|UpdateOrderStatus|PerformOrderPayment|SendAdditionalRequiredDocumentsToMerchant)$/;

export async function startStubMerchant(): Promise<{ server: Server; merchantUrl: string; close: () => Promise<void> }> {
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (c) => { text += c; });
    req.on('end', () => {
      const known = KNOWN.test(req.url ?? '');
      const body = text ? JSON.parse(text) : {};
      const paid = (body.order ?? body).PaymentDetails ? { PaymentAmount: '59.90', PaymentCurrencyCode: 'EUR' } : {};
      res.writeHead(known ? 200 : 404, { 'content-type': 'application/json' })
        .end(JSON.stringify(known ? { Success: true, InternalOrderId: 'M-1', OrderId: 'M-1', ...paid } : { Success: false, Message: 'no such path' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    server,
    merchantUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/crossborder`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
