/**
 * URL (form) decoding of the configured order fields: exactly once, `+` is a space, `%XX` is UTF-8,
 * malformed sequences left unchanged; in the order and in its Subs; configurable with `decode`.
 */
import request from 'supertest';
import { DEFAULT_DECODE_FIELDS, formDecode } from 'crossborder-merchant-kit';
import { BINDINGS } from '../helpers/bindings.js';
import { customerDetails, envelope, MERCHANT_GUID, order, paymentDetails, paymentOrder, statusUpdate } from '../helpers/orders.js';
import { recordingAdapter } from '../helpers/recording.js';

const CASES: Array<[string, string]> = [
  ['Ren%C3%A9e', 'Renée'],
  ['Hertzel+12', 'Hertzel 12'],
  ['a++b+', 'a  b '], // every + without any %
  ['+', ' '],
  ['é+x', 'é x'], // text outside escapes is kept as it is
  ['100%+off', '100%+off'], // malformed: left literal, + included
  ['alex%2Btag%40test.com', 'alex+tag@test.com'],
  ['100%', '100%'],
  ['%zz', '%zz'],
  ['Ren%C3', 'Ren%C3'], // a cut UTF-8 sequence
  ['%C3%28', '%C3%28'], // an invalid UTF-8 sequence
  ['50%25+off', '50% off'],
  ['%252B', '%2B'], // decoded once: the result is not decoded again
  ['plain text', 'plain text'],
  ['', ''],
];

describe('formDecode', () => {
  test.each(CASES)('%p → %p', (input, expected) => {
    expect(formDecode(input)).toBe(expected);
  });
});

/** Decode only what was encoded (docs/callbacks.md#url-decoding): the cases real payloads show. */
const RULE_CASES: Array<[string, string]> = [
  ['548+Market+St.', '548 Market St.'],
  ['548 Market St.', '548 Market St.'], // a literal space: plain
  ['+ 44 (0)808 258 0300', '+ 44 (0)808 258 0300'],
  ['+1 (212) 634-3952', '+1 (212) 634-3952'],
  ['+12126343952', '+12126343952'], // an international phone number: plain
  ['%2B12126343952', '+12126343952'],
  ['ehud.bichman%40example.com', 'ehud.bichman@example.com'],
  ['john+tag@example.com', 'john+tag@example.com'], // a literal @: plain
  ['21/D+Hertzel', '21/D+Hertzel'], // a literal /: plain
  ['Smith,+John', 'Smith,+John'], // a literal ,: plain
  ['Jos%C3%A9+Mar%C3%ADa', 'José María'],
  ['%zz+x', '%zz+x'], // malformed escape: left literal, never an error
  ['caf%E2%82', 'caf%E2%82'], // a cut UTF-8 sequence
  ['%E2%82+x', '%E2%82+x'],
];

async function sendOrder(mount: any, body: Record<string, unknown>, options: Record<string, unknown> = {}, path = '/cb/SendOrderToMerchant') {
  const adapter = recordingAdapter();
  const res = await request(mount({ merchantGuid: MERCHANT_GUID, adapter, ...options })).post(path).send(body);
  expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: expect.objectContaining({ Success: true }) });
  return adapter.calls[0].input;
}

describe.each(BINDINGS)('%s', (_name, mount) => {
  test.each(CASES)('PrimaryBilling.FirstName %p reaches the adapter as %p', async (input, expected) => {
    const seen = await sendOrder(mount, order({ PrimaryBilling: customerDetails({ FirstName: input }) }));
    expect(seen.PrimaryBilling.FirstName).toBe(expected);
  });

  test.each(RULE_CASES)('decode only what was encoded: %p reaches the adapter as %p (Primary and Secondary parties, PaymentDetails)', async (input, expected) => {
    const seen = await sendOrder(mount, paymentOrder({
      PrimaryBilling: customerDetails({ Address1: input }), SecondaryShipping: customerDetails({ Phone1: input }),
      PaymentDetails: paymentDetails({ Email: input, StateOrProvince: input }),
    }), {}, '/cb/PerformOrderPayment');
    expect([seen.PrimaryBilling.Address1, seen.SecondaryShipping.Phone1, seen.PaymentDetails.Email, seen.PaymentDetails.StateOrProvince])
      .toEqual([expected, expected, expected, expected]);
  });

  test('every string field of the four customer-details objects is decoded', async () => {
    const encoded = { FirstName: 'Ren%C3%A9e', Address1: 'Hertzel+12', Email: 'alex%2Btag%40test.com', Phone1: '%2B972+3+555+0000', City: 'Tel+Aviv', Company: 'A%26B' };
    const decoded = { FirstName: 'Renée', Address1: 'Hertzel 12', Email: 'alex+tag@test.com', Phone1: '+972 3 555 0000', City: 'Tel Aviv', Company: 'A&B' };
    const seen = await sendOrder(mount, order({
      PrimaryBilling: customerDetails(encoded), PrimaryShipping: customerDetails(encoded),
      SecondaryBilling: customerDetails(encoded), SecondaryShipping: customerDetails(encoded),
    }));
    for (const key of ['PrimaryBilling', 'PrimaryShipping', 'SecondaryBilling', 'SecondaryShipping']) {
      expect(seen[key]).toMatchObject(decoded);
    }
  });

  test('non-string customer fields (SaveAddress) are left as they are', async () => {
    const seen = await sendOrder(mount, order({ PrimaryShipping: customerDetails({ SaveAddress: true }) }));
    expect(seen.PrimaryShipping.SaveAddress).toBe(true);
  });

  test('the personal and address fields of PaymentDetails are decoded; card fields are not touched', async () => {
    const seen = await sendOrder(mount, paymentOrder({
      PaymentDetails: paymentDetails({ OwnerName: 'Ren%C3%A9e+Cohen', Address1: 'Hertzel+12', Email: 'alex%2Btag%40test.com', CVVNumber: '7+7' }),
    }), {}, '/cb/PerformOrderPayment');
    expect(seen.PaymentDetails).toMatchObject({ OwnerName: 'Renée Cohen', Address1: 'Hertzel 12', Email: 'alex+tag@test.com', CVVNumber: '7+7' });
  });

  test('tracking and waybill URLs are decoded', async () => {
    const seen = await sendOrder(mount, order({
      InternationalDetails: { ...(order().InternationalDetails as object), OrderTrackingUrl: 'https%3A%2F%2Ftrack.example.com%2Ft%3Fn%3DTRK+1', OrderWaybillUrl: 'https%3A%2F%2Fwb.example.com%2F1' },
      Parcels: [{ Code: 'P1', TrackingUrl: 'https%3A%2F%2Ftrack.example.com%2Fp%2F1' }, { Code: 'P2', TrackingUrl: 'https://track.example.com/p/2' }],
    }));
    expect(seen.InternationalDetails.OrderTrackingUrl).toBe('https://track.example.com/t?n=TRK 1');
    expect(seen.InternationalDetails.OrderWaybillUrl).toBe('https://wb.example.com/1');
    expect(seen.Parcels.map((p: any) => p.TrackingUrl)).toEqual(['https://track.example.com/p/1', 'https://track.example.com/p/2']);
  });

  test('fields outside the set are not decoded', async () => {
    const seen = await sendOrder(mount, order({ CustomerComments: 'Happy+birthday%21', Products: [{ ...(order().Products as any[])[0], Name: 'Caf%C3%A9' }] }));
    expect(seen.CustomerComments).toBe('Happy+birthday%21');
    expect(seen.Products[0].Name).toBe('Caf%C3%A9');
  });

  test('fields inside Subs are decoded too, once', async () => {
    const sub = order({ OrderId: 'GE1001CH-1', PrimaryBilling: customerDetails({ FirstName: 'Ren%C3%A9e', Address1: '%252B' }) });
    const seen = await sendOrder(mount, order({ Subs: [sub] }));
    expect(seen.Subs[0].PrimaryBilling.FirstName).toBe('Renée');
    expect(seen.Subs[0].PrimaryBilling.Address1).toBe('%2B');
  });

  test('the envelope form is decoded the same way', async () => {
    const seen = await sendOrder(mount, envelope(order({ PrimaryShipping: customerDetails({ Address1: 'Hertzel+12' }) })));
    expect(seen.PrimaryShipping.Address1).toBe('Hertzel 12');
  });

  test('UpdateOrderStatus is decoded too', async () => {
    const seen = await sendOrder(mount, statusUpdate('canceled', { PrimaryBilling: { FirstName: 'Ren%C3%A9e' } }), {}, '/cb/UpdateOrderStatus');
    expect(seen.PrimaryBilling.FirstName).toBe('Renée');
  });

  test('decode: false leaves every value as sent', async () => {
    const seen = await sendOrder(mount, order({ PrimaryBilling: customerDetails({ FirstName: 'Ren%C3%A9e' }) }), { decode: false });
    expect(seen.PrimaryBilling.FirstName).toBe('Ren%C3%A9e');
  });

  test('decode: { fields } replaces the set', async () => {
    const body = order({ PrimaryBilling: customerDetails({ FirstName: 'Ren%C3%A9e', City: 'Tel+Aviv' }), CustomerComments: 'Happy+birthday' });
    const seen = await sendOrder(mount, body, { decode: { fields: ['PrimaryBilling.City', 'CustomerComments'] } });
    expect(seen.PrimaryBilling.FirstName).toBe('Ren%C3%A9e');
    expect(seen.PrimaryBilling.City).toBe('Tel Aviv');
    expect(seen.CustomerComments).toBe('Happy birthday');
  });

  test('decode: { fields } can extend the default set', async () => {
    const body = order({ PrimaryBilling: customerDetails({ FirstName: 'Ren%C3%A9e' }), CustomerComments: 'Happy+birthday' });
    const seen = await sendOrder(mount, body, { decode: { fields: [...DEFAULT_DECODE_FIELDS, 'CustomerComments'] } });
    expect(seen.PrimaryBilling.FirstName).toBe('Renée');
    expect(seen.CustomerComments).toBe('Happy birthday');
  });
});
