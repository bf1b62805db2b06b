/**
 * The export-declaration rule and the EU customs territory (see docs/export-declaration.md).
 *
 * @module crossborder-merchant-kit/customs
 */
export {
  exportDeclarationRequired, EXPORT_DECLARATION_THRESHOLD_EUR,
  type ExportDeclarationInput, type ExportDeclarationLine, type ExportDeclarationDecision, type ExportDeclarationReason,
} from './rule.js';
export {
  exportDeclarationForShipment,
  type ShipmentDeclaration, type ShipmentDeclarationOptions, type DeclarationLine, type ReconciliationWarning,
} from './shipment.js';
export { customsTerritoryStatus, normalisePostalCode, type TerritoryStatus } from './territory.js';
export { CUSTOMS_TERRITORY, type TerritoryEntry, type PostalCodeRule } from './territory-table.js';
