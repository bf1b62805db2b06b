/**
 * Writes the `webhooks:` section of schemas/openapi.yaml (the callbacks the service makes to the
 * merchant) from the callback registry (lib/core/registry.ts) and the callback request schemas, so a
 * new callback needs no hand edit there. Run by `npm run generate`; `npm run generate:check` fails
 * when the section on disk differs. The rest of the document (paths, components) is written by hand.
 *
 * Per callback, in registry order, one webhook named as its default path (`SendRMAInfoToMerchant`) with
 * one operation per method (`operationId`: the adapter method unless `TEXT` says otherwise; a second method gets `<name><Method>`):
 *   - the request body: `#/components/requestBodies/<webhook>` when the hand-written components
 *     declare one (the order envelope), else the request schema (`#/components/schemas/<key>` when a
 *     component points at the schema file, else the file itself);
 *   - the cart callback (`result: 'cartInfo'`): its query parameters, and its POST form's payload;
 *   - the replies: 200 with its result (ResponseInfo or CheckoutCartInfo), 400 CallbackRefused;
 *   - its summary and description: `TEXT` below when written there, else the request schema's title
 *     and description.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { CALLBACK_ENTRIES, type CallbackEntry } from '../../lib/core/registry.js';

const schemasDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const OPENAPI_FILE = path.join(schemasDir, 'openapi.yaml');

const NOTE = '  # Written by `npm run generate` (schemas/tools/generate-openapi.ts) from the callback registry and the request schemas: do not edit.';

interface Text { summary: string; description: string; operationId?: string; post?: { summary: string; description: string } }

/** Hand-written prose of the callbacks' operations (optional: a callback without a line here gets its request schema's). */
const TEXT: Readonly<Record<string, Text>> = {
  GetCheckoutCartInfo: {
    summary: 'Retrieve the cart contents (GET, the default)',
    description: 'Called when the cart page loads or a checkout is attempted. Return only in-stock products; validate the cart token. The service may send more query parameters than listed.',
    post: { summary: 'Retrieve the cart contents (POST, when configured)', description: 'As the GET form, plus OrderID and MerchantGUID (required) in the JSON payload.' },
  },
  SendOrderToMerchant: {
    summary: 'Create or update an order (optionally with payment)',
    description: 'With PaymentDetails the call also performs the payment and the reply carries PaymentAmount and PaymentCurrencyCode. AdditionalRequiredDocuments obliges the merchant to delay fulfilment until the documents arrive.',
  },
  UpdateOrderStatus: {
    summary: 'Order status changed on the service (notably cancellation)',
    description: 'Only OrderId and StatusCode are mandatory. The merchant must support it.',
  },
  PerformOrderPayment: {
    summary: 'Perform the payment of an order',
    description: 'OrderId and PaymentDetails are mandatory; Subs is mandatory for a mixed order.',
  },
  SendAdditionalRequiredDocumentsToMerchant: {
    operationId: 'sendAdditionalRequiredDocumentsToMerchant', // the webhook's name, as published before the registry wrote this section
    summary: 'Deliver the additional required documents',
    description: [
      'The payload is not shown in the specification. The kit reads it like an order callback',
      '(`{ order: {...} }` or top level) with the document list in Documents, AdditionalRequiredDocuments',
      'or OrderDocuments, and validates it in the normalized form below. The reply is not shown either;',
      'the kit answers with a ResponseInfo.',
      '',
    ].join('\n'),
  },
  UpdateOrderShippingInfo: {
    summary: 'Tracking details of an order (not in the interface specification)',
    description: 'Not in the interface specification; the shape comes from existing integrations. OrderId is mandatory.',
  },
  NotifyOrderRefunded: {
    summary: 'An order or some of its lines were refunded (not in the interface specification)',
    description: 'Not in the interface specification; the shape comes from existing integrations. OrderId is mandatory; amounts are decimal strings.',
  },
  SendRMAInfoToMerchant: {
    summary: 'A return (RMA) the customer created (not in the interface specification)',
    description: 'From the service\'s page "RMA Notifications (from Global-e)". Exactly once per OrderId + RMANumber.',
  },
  UpdateParcelDispatch: {
    summary: 'A parcel dispatched to the customer (not in the interface specification)',
    description: 'From the service\'s page "Dispatch Notifications (from Global-e)". Exactly once per OrderId, DispatchedParcel.ParcelCode and status (DispatchedParcel.Code, DispatchedParcel.StatusName, StatusCode).',
  },
};

const CART_PARAMETERS = ['merchantCartToken', 'countryCode', 'currencyCode'];
const CART_POST_SCHEMA = 'CartInfoPostPayload';

/** A YAML scalar at `indent`: plain when YAML reads it back as the same string, a block (`|`) when it has lines, else double-quoted. */
function scalar(text: string, indent: string): string {
  if (text.includes('\n')) return `|\n${text.replace(/\n$/, '').split('\n').map((l) => (l ? `${indent}  ${l}` : '')).join('\n')}`;
  let plain = false;
  try { plain = parse(`k: ${text}`)?.k === text; } catch { plain = false; }
  return plain ? text : JSON.stringify(text);
}

interface Components { schemas: Record<string, { $ref?: string }>; requestBodies: Record<string, unknown> }

function operation(e: CallbackEntry, method: string, first: boolean, components: Components, schemaText: { title: string; description: string }): string[] {
  const wire = e.defaultPath.slice(1);
  const text = TEXT[wire];
  const own = !first && text?.post ? text.post : text;
  const summary = own?.summary ?? schemaText.title;
  const description = own?.description ?? schemaText.description;
  const lines = [
    `    ${method.toLowerCase()}:`,
    `      operationId: ${first ? text?.operationId ?? e.name : `${e.name}${method[0]}${method.slice(1).toLowerCase()}`}`,
    '      tags: [Callbacks]',
    `      summary: ${scalar(summary, '      ')}`,
    `      description: ${scalar(description, '      ')}`,
  ];
  const cart = e.result === 'cartInfo';
  if (cart) lines.push('      parameters:', ...CART_PARAMETERS.map((p) => `        - $ref: '#/components/parameters/${p}'`));
  if (method !== 'GET') {
    const schemaKey = Object.entries(components.schemas).find(([, s]) => s.$ref === `./${e.requestSchema}`)?.[0];
    if (!cart && wire in components.requestBodies) lines.push('      requestBody:', `        $ref: '#/components/requestBodies/${wire}'`);
    else {
      const ref = cart ? `#/components/schemas/${CART_POST_SCHEMA}` : schemaKey ? `#/components/schemas/${schemaKey}` : `./${e.requestSchema}`;
      lines.push('      requestBody:', '        required: true', '        content:', '          application/json:', '            schema:', `              $ref: '${ref}'`);
    }
  }
  lines.push(
    '      responses:',
    "        '200':",
    `          $ref: '#/components/responses/${cart ? 'CheckoutCartInfo' : 'ResponseInfo'}'`,
    "        '400':",
    "          $ref: '#/components/responses/CallbackRefused'",
  );
  return lines;
}

/** The `webhooks:` section for `entries`, given the hand-written rest of the document. */
export function webhooksSection(entries: readonly CallbackEntry[], document: string): string {
  const components = (parse(document) as { components: Components }).components;
  const lines = ['webhooks:', NOTE];
  for (const e of entries) {
    const file = path.join(schemasDir, e.requestSchema);
    if (!fs.existsSync(file)) throw new Error(`${e.name}: its request schema schemas/${e.requestSchema} (lib/core/registry.ts) does not exist`);
    const schema = JSON.parse(fs.readFileSync(file, 'utf8')) as { title?: string; description?: string };
    const schemaText = { title: schema.title ?? e.defaultPath.slice(1), description: schema.description ?? '' };
    lines.push(`  ${e.defaultPath.slice(1)}:`);
    e.methods.forEach((m, i) => lines.push(...operation(e, m, i === 0, components, schemaText)));
  }
  return `${lines.join('\n')}\n`;
}

/** schemas/openapi.yaml with its `webhooks:` section (up to `components:`) written from `entries`. */
export function openapiDocument(current: string, entries: readonly CallbackEntry[] = CALLBACK_ENTRIES): string {
  const start = current.indexOf('\nwebhooks:\n');
  const end = current.indexOf('\ncomponents:\n');
  if (start < 0 || end < start) throw new Error('schemas/openapi.yaml: no top-level `webhooks:` section before `components:`');
  return `${current.slice(0, start + 1)}${webhooksSection(entries, current)}${current.slice(end + 1)}`;
}
