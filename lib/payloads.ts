/**
 * Payload types of the interface, under their spec names. They are generated from the JSON Schemas
 * in schemas/ into lib/generated/types.ts (`npm run generate`); docs/schemas.md maps each spec
 * resource to its type. Every object type accepts unknown properties (the service adds fields).
 */
export type JsonObject = Record<string, unknown>;

// Every type generated from schemas/ (a new schema's type is exported without a list to update).
export type * from './generated/types.js';
