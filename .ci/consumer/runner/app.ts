// The merchant app under test in the jest and vitest checks: an Express router over an adapter that records orders.
import express from 'express';
import type { MerchantAdapter } from 'crossborder-merchant-kit';
import { createCallbackRouter } from 'crossborder-merchant-kit/express';
import { TEST_MERCHANT_GUID } from 'crossborder-merchant-kit/testing';

export const created: string[] = [];
export const cancelled: string[] = [];
const adapter: MerchantAdapter = {
  async sendOrderToMerchant(order) {
    created.push(String(order.OrderId));
    return { InternalOrderId: `A-${order.OrderId}` };
  },
  async updateOrderStatus(order) {
    cancelled.push(String(order.OrderId));
  },
};
export const app = express().use('/cb', createCallbackRouter({ merchantGuid: TEST_MERCHANT_GUID, adapter }));
