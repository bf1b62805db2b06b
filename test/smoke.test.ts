import request from 'supertest';
import { BINDINGS } from './helpers/bindings.js';

describe.each(BINDINGS)('%s binding', (_name, mount) => {
  test('serves SendOrderToMerchant with a decoded order', async () => {
    let seen: any;
    const app = mount({
      merchantGuid: 'ABC',
      adapter: {
        async sendOrderToMerchant(order) { seen = order; return { InternalOrderId: 'A-1', OrderId: String(order.OrderId) }; },
        async updateOrderStatus() {},
      },
    });
    const res = await request(app).post('/cb/SendOrderToMerchant').send({ order: { MerchantGUID: 'abc', OrderId: 'X1', PrimaryBilling: { FirstName: 'Ren%C3%A9e' } } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ Success: true, InternalOrderId: 'A-1', OrderId: 'X1' });
    expect(seen.PrimaryBilling.FirstName).toBe('Renée');
  });
});
