import { findLeaks } from '../../lib/conformance/leaks.js';

test.each([
  ['a Node stack trace in JSON', '{"Message":"Error: boom\\n    at handle (/srv/app/server.js:41:11)\\n    at process"}', 'a stack trace'],
  ['Express\'s HTML error page', '<pre>SyntaxError: Unexpected end of JSON input<br> &nbsp; &nbsp;at JSON.parse (&lt;anonymous&gt;)<br> &nbsp; &nbsp;at parse (/app/node_modules/body-parser/lib/types/json.js:92:19)</pre>', 'a stack trace'],
  ['a file path', '{"Message":"cannot open /var/www/shop/config/secrets.json"}', 'a server file path'],
  ['a Windows path', '{"Message":"failed in C:\\\\inetpub\\\\shop\\\\Order.cs"}', 'a server file path'],
  ['the card number', '{"Message":"card 4111111111111111 declined"}', 'the card number'],
  ['the card number grouped', '{"Message":"card 4111 1111 1111 1111 declined"}', 'the card number'],
  ['the CVV', '{"PaymentDetails":{"CVVNumber":"737"}}', 'the CVV'],
])('finds %s', (_name, text, kind) => {
  expect(findLeaks(text)).toContain(kind);
});

test.each([
  ['a normal ResponseInfo', '{"Success":true,"InternalOrderId":"BM-1001","PaymentAmount":"72.30","PaymentCurrencyCode":"EUR"}'],
  ['a masked card', '{"Message":"card ************1111 declined"}'],
  ['a URL', '{"URL":"https://docs.example.com/GE927127SE/ead.pdf"}'],
  ['an amount of 737', '{"PaymentAmount":"737.00"}'],
])('leaves %s alone', (_name, text) => {
  expect(findLeaks(text)).toEqual([]);
});
