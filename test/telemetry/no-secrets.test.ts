/**
 * Nothing personal or secret reaches the exporters: every callback (success, decline, failure whose
 * message holds card data), the service client with its token, and everything the span and metric
 * exporters got is searched for card numbers, CVV, MerchantGUID, tokens, names, e-mails, addresses, phones.
 */
import { CallbackError } from 'crossborder-merchant-kit';
import { createServiceClient } from 'crossborder-merchant-kit/client';
import { fakeService } from '../client/fake-service.js';
import { fixture as serviceFixture } from '../client/setup.js';
import { CARD_NUMBER, customerDetails, MERCHANT_GUID, order, paymentDetails } from '../helpers/orders.js';
import { installOtel } from '../helpers/otel.js';
import { testKit } from '../helpers/kit.js';
import { captureLogger } from '../helpers/recording.js';
import { DELIVERIES } from './deliveries.js';

const CVV = '4829';
const TOKEN = 'tok-5c4b3a29-access';
const PERSON = {
  FirstName: 'Philippa', LastName: 'Quarendon', Email: 'philippa.quarendon@example.org', Address1: 'Rue du Grand-Pré 17',
  City: 'Yverdon-les-Bains', Zip: '1400', Phone1: '+41 24 555 01 99', Company: 'Quarendon Atelier',
};
const SECRETS = [CARD_NUMBER, MERCHANT_GUID, TOKEN, 'cart-7f3a', ...Object.values(PERSON).filter((v) => v !== PERSON.Zip)];

function stringsOf(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) stringsOf(v, out);
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) { out.push(k); stringsOf(v, out); }
  return out;
}

test('everything the exporters got holds no card number, CVV, MerchantGUID, token, name, e-mail, address or phone', async () => {
  const otel = installOtel();
  const svc = await fakeService(() => ({ status: 200, body: serviceFixture('hub-details') }));
  try {
    const person = customerDetails(PERSON);
    const paid = order({ PrimaryBilling: person, PrimaryShipping: person, PaymentDetails: paymentDetails({ ...PERSON, OwnerName: 'Philippa Quarendon', CVVNumber: CVV }) });
    const bearer = { authorization: `Bearer ${TOKEN}` };
    const leaky = `${CARD_NUMBER} ${CVV} ${PERSON.Email} ${MERCHANT_GUID}`;
    const answers = [
      {},
      { sendOrderToMerchant: () => { throw new CallbackError(`declined ${leaky}`, { status: 402, errorCode: leaky }); } },
      { sendOrderToMerchant: () => { throw new Error(`failed ${leaky}`); } },
      { sendOrderToMerchant: () => ({ Success: false, Message: leaky }) },
    ];
    for (const answer of answers) {
      const t = testKit({ answers: answer });
      await t.deliver('sendOrderToMerchant', paid, bearer);
      await t.deliver('sendOrderToMerchant', paid, bearer); // replayed when it succeeded
    }
    const t = testKit();
    for (const d of DELIVERIES) await t.kit.handle(d.name, d.request());
    await t.deliver('performOrderPayment', paid, bearer);
    const client = createServiceClient({ baseUrl: svc.url, merchantGuid: MERCHANT_GUID, accessToken: TOKEN, logger: captureLogger() });
    await client.getActiveHubDetails();
    await client.getShipmentInformation('TRK-1').catch(() => {});

    const everything = await otel.everything();
    expect(otel.spans().length).toBeGreaterThan(20);
    expect(SECRETS.filter((secret) => everything.includes(secret))).toEqual([]);
    // A CVV or a zip is short: looked for among the exported strings (ids and durations are numbers or hex).
    const strings = stringsOf(JSON.parse(everything));
    expect(strings.filter((s) => s.includes(CVV) || s.includes(PERSON.Zip))).toEqual([]);
  } finally {
    await svc.close();
    await otel.uninstall();
  }
});
