/** dynalite (DynamoDB on LevelDB, for the DynamoDBStore tests) ships no types: the factory of its http.Server. */
declare module 'dynalite' {
  import type { Server } from 'node:http';
  export default function dynalite(options?: { path?: string; createTableMs?: number; deleteTableMs?: number; updateTableMs?: number }): Server;
}
