/**
 * The sandbox of the service (a tool around the kit: nothing in the kit imports it). See docs/sandbox.md.
 *
 * @module crossborder-merchant-kit/sandbox
 */
export { createSandbox, type Sandbox, type SandboxRoute } from './server.js';
export { resolveSandboxOptions, SANDBOX_MERCHANT_GUID, type SandboxOptions, type ResolvedSandboxOptions, type MerchantHoldReader } from './options.js';
export type { SandboxConfigChange } from './options.js';
export type { Catalogue, CatalogueReply, PricePreview } from './catalogue.js';
export { ExchangeLog, type NewExchange, type RunResult, type Exchange, type ExchangeKind, type ExchangeDirection, type SandboxEvent, type SandboxListener, type ScenarioEvent } from './exchange-log.js';
export { OrderBook, type NewOrder, type DispatchSimulation, type OrderState, type OrderLineState, type DispatchedParcel, type TimelineEntry, type SandboxRefund, type IssuedDocument } from './orders.js';
export { SANDBOX_JWT_USER, SANDBOX_JWT_PASSWORD } from './fulfilment.js';
export { DECLINED_CARD_NUMBER } from './scenarios-holds-payments.js';
export { runScenario, SCENARIO_LIST_LINE, SCENARIO_NAMES, SCENARIO_DESCRIPTIONS, ScenarioError, type ScenarioName, type ScenarioResult, type ScenarioStep, type ScenarioEnv } from './scenarios.js';
export { sendCallback, accepted, type MerchantTarget, type CallbackCall } from './callbacks.js';
export { defaultSeed, mergeSeed, loadSeedFile, shipmentForOrder, SEED_CATALOGUE, SeedError, SEED_TRACKING_NUMBERS, SEED_TOKENS, type SeedData, type SeedMerchant, type SeedOrder, type SeedShipment, type SeedProduct, type SeedHub } from './seed.js';
export { describeExchange } from './describe.js';
export { SendError, CALLBACK_OPERATION_NAMES, type SendErrorCode, type SendPayloadOptions } from './resend.js';
export { JsonTextError, type JsonPosition } from './json-position.js';
