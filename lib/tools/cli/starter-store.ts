/**
 * The store's part of the starter `crossborder-merchant-kit init` writes (starter-files.ts holds the
 * rest): per `--store`, src/store.ts, the dependencies and scripts it needs, its lines in .env.example
 * and the README's setup steps. Pure: texts only.
 */

/** The stores `init --store` offers. */
export const STARTER_STORES = ['memory', 'postgres', 'dynamodb'] as const;
/** One of {@link STARTER_STORES}. */
export type StarterStore = (typeof STARTER_STORES)[number];

/** The store's class name, as the CLI's and the README's text name it. */
export const STARTER_STORE_CLASS: Record<StarterStore, string> = {
  memory: 'MemoryStore', postgres: 'PostgresStore', dynamodb: 'DynamoDBStore',
};

/** The local DynamoDB's port the starter's texts use (dynalite, docs/stores.md "Developing locally"). */
export const STARTER_DYNALITE_PORT = 4567;
// Package names in the generated imports are spliced in: .ci/imports.mjs reads this file's text for imports.
/** A text as a quoted string literal of the generated code (starter-files.ts uses it too). */
export const q = (s: string): string => JSON.stringify(s);
const DYNALITE = `./node_modules/.bin/dynalite --host 127.0.0.1 --port ${STARTER_DYNALITE_PORT} --createTableMs 0 &`;
const DYNAMODB_ENDPOINT = `http://127.0.0.1:${STARTER_DYNALITE_PORT}`;

/** What the store adds to package.json (versions as the kit's own devDependencies have them). */
export function storePackage(store: StarterStore): {
  dependencies: Record<string, string>; devDependencies: Record<string, string>; scripts: Record<string, string>;
} {
  if (store === 'postgres') {
    return { dependencies: { pg: '^8.11.0' }, devDependencies: { '@types/pg': '^8.11.0' }, scripts: { migrate: 'crossborder-merchant-kit migrate' } };
  }
  if (store === 'dynamodb') {
    return {
      dependencies: { '@aws-sdk/client-dynamodb': '^3.1178.0' },
      devDependencies: { dynalite: '^4.0.0' },
      scripts: { 'create-table': 'tsx src/create-table.ts' },
    };
  }
  return { dependencies: {}, devDependencies: {}, scripts: {} };
}

/** The store's lines in .env.example. */
export function storeEnv(store: StarterStore): string[] {
  if (store === 'postgres') return ['# PostgresStore: run `npm run migrate` once (a deploy step) before `npm start`', 'DATABASE_URL=postgres://user:password@127.0.0.1:5432/shop'];
  if (store === 'dynamodb') {
    return [
      '# DynamoDBStore: the table (deployed: infrastructure, docs/stores.md#the-table; locally: `npm run create-table`)',
      'CALLBACK_TABLE=cbk-callbacks',
      '# Locally, a DynamoDB emulator (dynalite); unset on AWS, where the SDK finds region and credentials itself',
      `DYNAMODB_ENDPOINT=${DYNAMODB_ENDPOINT}`,
    ];
  }
  return [];
}

/** The README's (and the CLI's "Next:") setup steps before `npm start`, one command a line. */
export function storeSteps(store: StarterStore): string[] {
  if (store === 'postgres') return ['export DATABASE_URL=postgres://user:password@127.0.0.1:5432/shop', 'npm run migrate   # the store\'s tables, once (a deploy step)'];
  if (store === 'dynamodb') {
    return [
      `${DYNALITE}   # DynamoDB's API locally, in memory (stop it with kill %1)`,
      `export DYNAMODB_ENDPOINT=${DYNAMODB_ENDPOINT}`,
      'npm run create-table   # the store\'s table, locally (deployed, the table is infrastructure)',
    ];
  }
  return [];
}

/** The test's line before the app starts: the store made ready (the test database or table). */
export function storeTestSetup(store: StarterStore): string {
  if (store === 'postgres') return '  await store.migrate(); // the test database: migrated here (in production: npm run migrate)\n';
  if (store === 'dynamodb') return '  await store.createTable(); // the local table (dynalite): created unless it exists (in production: infrastructure)\n';
  return '';
}

/** src/create-table.ts, for the stores that have one. */
export function storeExtraFiles(store: StarterStore): Record<string, string> {
  if (store !== 'dynamodb') return {};
  return {
    'src/create-table.ts': `// npm run create-table: DynamoDBStore's table (on-demand, TTL on), unless it exists, for local development
// (dynalite, DynamoDB Local). Deployed, the table is infrastructure: CloudFormation/SAM or CDK, docs/stores.md#the-table.
import { closeStore, store, tableName } from './store.js';

const created = await store.createTable();
console.log(created ? \`Created the table \${tableName}\` : \`The table \${tableName} exists\`);
await closeStore();
`,
  };
}

/** src/store.ts. */
export function storeFile(store: StarterStore, lambda: boolean): string {
  if (store === 'memory') {
    const several = lambda
      ? `// one execution environment, and Lambda runs one per concurrent invocation: deployed, use DynamoDBStore
// (crossborder-merchant-kit init --store dynamodb, docs/stores.md#dynamodbstore) or PostgresStore.`
      : '// for several, PostgresStore (crossborder-merchant-kit init --store postgres).';
    return `// Where the kit keeps what makes a redelivery safe (replies, locks). MemoryStore: one process;
${several}
import { MemoryStore } from 'crossborder-merchant-kit/store';

export const store = new MemoryStore();
export async function closeStore(): Promise<void> {}
`;
  }
  if (store === 'dynamodb') {
    return `// Where the kit keeps what makes a redelivery safe (replies, locks): DynamoDB, one table (docs/stores.md#dynamodbstore).
// Deployed, the table is infrastructure (CloudFormation/SAM or CDK) and the SDK finds the region and credentials;
// locally, DYNAMODB_ENDPOINT points at dynalite or DynamoDB Local and \`npm run create-table\` creates the table.
import { DynamoDBClient } from ${q('@aws-sdk/client-dynamodb')};
import { DynamoDBStore } from 'crossborder-merchant-kit/store/dynamodb';

const endpoint = process.env.DYNAMODB_ENDPOINT;
// Outside the handler: one client and one store per execution environment.
const client = new DynamoDBClient(endpoint
  ? { endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } // the emulator accepts any
  : {});
export const tableName = process.env.CALLBACK_TABLE ?? 'cbk-callbacks';
export const store = new DynamoDBStore({ client, tableName });
export async function closeStore(): Promise<void> {
  client.destroy(); // the store never destroys the client
}
`;
  }
  return `// Where the kit keeps what makes a redelivery safe (replies, locks): PostgreSQL. Run \`npm run migrate\`
// (crossborder-merchant-kit migrate) once, as a deploy step, with the same DATABASE_URL.
import pg from ${q('pg')};
import { PostgresStore } from 'crossborder-merchant-kit/store';

const connectionString = process.env.DATABASE_URL;
if (!connectionString) throw new Error('DATABASE_URL is not set (see .env.example)');
const pool = new pg.Pool({ connectionString });
export const store = new PostgresStore({ pool, autoMigrate: false });
export async function closeStore(): Promise<void> {
  await pool.end();
}
`;
}

/** The README's lines on the store after the list of files (each ending in a newline). */
export function storeReadme(store: StarterStore): string {
  if (store !== 'dynamodb') return '';
  return `- \`src/create-table.ts\`: \`npm run create-table\`, the store's table for local development.

**The table.** Locally, dynalite (a dev dependency; DynamoDB Local works too) and \`npm run create-table\`
above; \`npm test\` creates it too, unless it exists. Deployed, the table is infrastructure: the
CloudFormation/SAM resource or CDK construct of
[docs/stores.md#the-table](https://github.com/crossborder-merchant-kit/crossborder-merchant-kit/blob/main/docs/stores.md#the-table)
(partition key \`pk\`, sort key \`sk\`, the \`active-holds\` index, TTL on \`ttl\`), named by \`CALLBACK_TABLE\`
(default \`cbk-callbacks\`), with \`DYNAMODB_ENDPOINT\` unset. The function's role needs \`dynamodb:GetItem\`,
\`PutItem\`, \`UpdateItem\`, \`DeleteItem\` and \`Query\` on the table and its index.
`;
}
