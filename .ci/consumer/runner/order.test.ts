// The supertest suite the jest and vitest checks run (test and expect are globals: jest injects them, vitest.config.ts asks for them).
import request from "supertest";
import { buildOrder, buildUpdateOrderStatus } from "crossborder-merchant-kit/testing";
import { app, cancelled, created } from "./app.js";

test("an order sent twice is created once, then cancelled", async () => {
  const order = buildOrder();
  const first = await request(app).post("/cb/SendOrderToMerchant").send(order);
  const again = await request(app).post("/cb/SendOrderToMerchant").send(order);
  expect(first.status).toBe(200);
  expect(first.body).toEqual({ Success: true, InternalOrderId: `A-${order.OrderId}` });
  expect(again.body).toEqual(first.body);
  expect(created).toEqual([String(order.OrderId)]);
  const status = await request(app).post("/cb/UpdateOrderStatus").send(buildUpdateOrderStatus({ OrderId: order.OrderId }));
  expect(status.status).toBe(200);
  expect(cancelled).toEqual([String(order.OrderId)]);
});
