/**
 * The conformance checker (a tool around the kit: nothing in the kit imports it). See docs/conformance.md.
 *
 * @module crossborder-merchant-kit/conformance
 */
export { runConformance, type ConformanceOptions, type ConformanceReport, type CheckResult } from './runner.js';
export { CHECKS, CHECK_IDS, type CheckStatus, type CheckDefinition, type CheckOutcome } from './checks.js';
export { formatTable, formatJunit, toJson } from './report.js';
export type { RecordedCall } from './context.js';
export type { CallbackPathName, CallbackPaths } from './paths.js';
export type { OrderLineInput } from './payloads.js';
