import { findLeaks } from '../../../lib/tools/conformance/leaks.js';

test.each([
  ['a Node stack trace in JSON', '{"Message":"Error: boom\\n    at handle (/srv/app/server.js:41:11)\\n    at process"}', 'a stack trace'],
  ['Express\'s HTML error page', '<pre>SyntaxError: Unexpected end of JSON input<br> &nbsp; &nbsp;at JSON.parse (&lt;anonymous&gt;)<br> &nbsp; &nbsp;at parse (/app/node_modules/body-parser/lib/types/json.js:92:19)</pre>', 'a stack trace'],
  ['a file path', '{"Message":"cannot open /var/www/shop/config/secrets.json"}', 'a server file path'],
  ['a Windows path', '{"Message":"failed in C:\\\\inetpub\\\\shop\\\\Order.cs"}', 'a server file path'],
  ['the card number', '{"Message":"card 4111111111111111 declined"}', 'the card number'],
  ['the card number grouped', '{"Message":"card 4111 1111 1111 1111 declined"}', 'the card number'],
  ['the CVV', '{"PaymentDetails":{"CVVNumber":"737"}}', 'the CVV'],
  // Issue 36: the checker is for merchants built with this kit or not (Java, Python, PHP, .NET, Ruby).
  ['a Java stack trace in JSON', '{"Message":"java.lang.NullPointerException\\n\\tat com.shop.orders.OrderController.create(OrderController.java:87)\\n\\tat jdk.internal.reflect.NativeMethodAccessorImpl.invoke0(Native Method)"}', 'a stack trace'],
  ['a Java "Exception in thread"', 'Exception in thread "http-nio-8080-exec-3" java.lang.IllegalStateException: order', 'a stack trace'],
  ['a Java "Caused by"', '{"error":"wrapped","trace":"Caused by: org.postgresql.util.PSQLException: duplicate key"}', 'a stack trace'],
  ['a Python traceback', 'Traceback (most recent call last):\n  File "/srv/shop/app/views.py", line 42, in create_order\n    order = Order(**data)\nKeyError: \'OrderId\'', 'a stack trace'],
  ['a Python frame in JSON', '{"detail":"File \\"/srv/shop/app/views.py\\", line 42, in create_order"}', 'a stack trace'],
  ['a Python path', '{"detail":"error in /srv/shop/app/views.py"}', 'a server file path'],
  ['a PHP fatal error page', '<b>Fatal error</b>:  Uncaught TypeError: bad in /var/www/shop/src/Controller/Orders.php on line 118', 'a stack trace'],
  ['a PHP stack trace in JSON', '{"message":"Uncaught Exception: boom","trace":"Stack trace:\\n#0 /var/www/shop/src/Orders.php(42): Shop\\\\Orders->create()\\n#1 {main}"}', 'a stack trace'],
  ['a PHP path', '{"message":"boom in /var/www/shop/src/Orders.php"}', 'a server file path'],
  ['a .NET frame', '{"Message":"at Shop.Orders.Handle() in D:\\\\build\\\\Orders.cs:line 42"}', 'a stack trace'],
  ['a Ruby frame', '{"error":"/app/app/models/order.rb:42:in `charge\'"}', 'a stack trace'],
])('finds %s', (_name, text, kind) => {
  expect(findLeaks(text)).toContain(kind);
});

test.each([
  ['a normal ResponseInfo', '{"Success":true,"InternalOrderId":"BM-1001","PaymentAmount":"72.30","PaymentCurrencyCode":"EUR"}'],
  ['a masked card', '{"Message":"card ************1111 declined"}'],
  ['a URL', '{"URL":"https://docs.example.com/GE927127SE/ead.pdf"}'],
  ['an amount of 737', '{"PaymentAmount":"737.00"}'],
  ['a PHP page URL', '{"URL":"https://shop.example.com/checkout/index.php"}'],
  ['a numbered note', '{"Message":"see note #1 of the order"}'],
  ['a Python-ish word', '{"Message":"File upload done, line items 3"}'],
])('leaves %s alone', (_name, text) => {
  expect(findLeaks(text)).toEqual([]);
});
