/**
 * What a merchant's reply must never show: a stack trace, a server file path, the card number or
 * the CVV the checker sent. Works on any body text (JSON, HTML error pages, plain text), and on the
 * traces of the usual merchant stacks, built with this kit or not: Node, Java (and Kotlin, Scala),
 * Python, PHP, .NET, Ruby.
 */
import { TEST_CARD } from './payloads.js';

const STACK_FRAME = /\bat\s+(?:[^\s()<>]+\s+)?\(?(?:file:\/\/)?(?:\/|[A-Za-z]:\\|&lt;|<)[^\s()]*:\d+:\d+\)?/;
const ERROR_WITH_FRAMES = /\b[A-Z]\w*Error\b[^\n]*(?:\n|<br\s*\/?>)\s*(?:&nbsp;|\s)*at\s/;
const FILE_PATH = /(?:^|[\s"'(=>:])((?:\/[\w.@+-]+){2,}\.(?:[cm]?[jt]sx?|json|node)|[A-Za-z]:\\{1,2}(?:[\w.@+-]+\\{1,2})+[\w.@+-]+)/;
const NODE_MODULES = /node_modules[\\/]/;
/** Other stacks' traces: Java frames, Python tracebacks, PHP frames and fatal errors, .NET and Ruby frames. */
const OTHER_TRACES: readonly RegExp[] = [
  // Java / Kotlin / Scala: `at com.shop.Orders.handle(Orders.java:42)`, `Exception in thread "main"`, `Caused by: java.…`
  /(?:\\t|\b)at\s+[\w$]+(?:\.[\w$<>]+)+\((?:[\w$-]+\.(?:java|kt|scala|groovy|clj):\d+|Native Method|Unknown Source)\)/,
  /\bException in thread \\?"[^"]*"|\bCaused by: (?:[a-z_$][\w$]*\.)+[A-Z][\w$]*(?:Exception|Error)\b/,
  // Python: `Traceback (most recent call last):`, `File "/srv/shop/app/views.py", line 42, in handle`
  /\bTraceback \(most recent call last\)|\bFile \\?"[^"\n]+?\\?", line \d+/,
  // PHP: `#0 /var/www/shop/src/Orders.php(42): …`, `Stack trace: #0`, `… in /var/www/…/Orders.php on line 42`
  // (also inside a JSON string, where a new line is the two characters \n)
  /(?:^|[\s>]|\\n)#\d+ (?:\/|[A-Za-z]:\\|\{main\}|\[internal function\])/m,
  /\bStack trace:(?:\s|\\n|<br\s*\/?>)*#0\b/,
  /\bin (?:\/|[A-Za-z]:\\)[^\s<>"']+ on line \d+/,
  // .NET: `at Shop.Orders.Handle() in C:\src\Orders.cs:line 42`; Ruby: `/app/models/order.rb:42:in 'charge'`
  /\bin \S+:line \d+/,
  /\.rb:\d+:in [`'"]/,
];
/** Absolute paths of source files of the usual server stacks. */
const SOURCE_PATH = /(?:^|[\s"'(=>:\[])((?:\/[\w.@+~-]+)+\/[\w.@+~-]+\.(?:py|pyc|php|phtml|inc|java|class|jar|kt|scala|groovy|rb|erb|cs|vb|go|rs|pl|pm|jsp|aspx?|cshtml|twig|blade\.php|ex|exs|erl)\b)/;
const CVV_FIELD = /cvv\w*["']?\s*[:=]\s*["']?(\d{3,4})\b/i;

/** The card digits as they could be echoed: plain, or grouped by spaces or dashes. */
function cardPatterns(): RegExp[] {
  const n = TEST_CARD.CardNumber;
  const grouped = n.match(/.{1,4}/g)!.join('[\\s-]?');
  return [new RegExp(grouped)];
}

/** The kinds of leak found in `text` (empty when clean). */
export function findLeaks(text: string): string[] {
  const found: string[] = [];
  if (STACK_FRAME.test(text) || ERROR_WITH_FRAMES.test(text) || OTHER_TRACES.some((p) => p.test(text))) found.push('a stack trace');
  if (FILE_PATH.test(text) || NODE_MODULES.test(text) || SOURCE_PATH.test(text)) found.push('a server file path');
  if (cardPatterns().some((p) => p.test(text))) found.push('the card number');
  const cvv = CVV_FIELD.exec(text);
  if (cvv && cvv[1] === TEST_CARD.CVVNumber) found.push('the CVV');
  else if (new RegExp(`["']${TEST_CARD.CVVNumber}["']`).test(text)) found.push('the CVV');
  return found;
}
