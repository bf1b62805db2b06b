/**
 * DynamoDBStore's table: its definition (as `createTable()` creates it; docs/stores.md gives the same
 * as CloudFormation/SAM and CDK) and its creation for development and tests.
 */
import {
  CreateTableCommand, DescribeTableCommand, UpdateTimeToLiveCommand, type CreateTableCommandInput, type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';
import { setTimeout as sleep } from 'node:timers/promises';

/** The sparse index of active holds (countActiveHolds). */
export const ACTIVE_HOLDS_INDEX = 'active-holds';
/** The TTL attribute (epoch seconds). */
export const TTL_ATTRIBUTE = 'ttl';

/**
 * The `CreateTableCommand` input of the store's table (on-demand billing, keys `pk`/`sk`, the
 * `active-holds` index), for infrastructure as code (CDK, Terraform, CloudFormation) or `createTable`.
 * Turn the TTL attribute `ttl` on as well.
 *
 * @param tableName - The table's name.
 */
export const tableDefinition = (tableName: string): CreateTableCommandInput => ({
  TableName: tableName,
  BillingMode: 'PAY_PER_REQUEST',
  AttributeDefinitions: [
    { AttributeName: 'pk', AttributeType: 'S' }, { AttributeName: 'sk', AttributeType: 'S' },
    { AttributeName: 'hp', AttributeType: 'S' }, { AttributeName: 'hs', AttributeType: 'S' },
  ],
  KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }, { AttributeName: 'sk', KeyType: 'RANGE' }],
  GlobalSecondaryIndexes: [{
    IndexName: ACTIVE_HOLDS_INDEX,
    KeySchema: [{ AttributeName: 'hp', KeyType: 'HASH' }, { AttributeName: 'hs', KeyType: 'RANGE' }],
    Projection: { ProjectionType: 'KEYS_ONLY' },
  }],
});

/** Creates the table (on-demand) unless it exists, waits until it is ACTIVE, and turns its TTL on; resolves whether it created it. */
export async function createTable(client: DynamoDBClient, tableName: string, waitMs = 60_000): Promise<boolean> {
  let created = true;
  try {
    await client.send(new CreateTableCommand(tableDefinition(tableName)));
  } catch (err) {
    if ((err as { name?: unknown }).name !== 'ResourceInUseException') throw err;
    created = false;
  }
  const deadline = Date.now() + waitMs;
  for (;;) {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    if (Table?.TableStatus === 'ACTIVE') break;
    if (Date.now() > deadline) throw new Error(`DynamoDBStore.createTable: the table ${tableName} is not ACTIVE after ${waitMs} ms`);
    await sleep(200);
  }
  try {
    await client.send(new UpdateTimeToLiveCommand({ TableName: tableName, TimeToLiveSpecification: { AttributeName: TTL_ATTRIBUTE, Enabled: true } }));
  } catch (err) {
    // Already on (ValidationException: "TimeToLive is already enabled"), or an emulator without TTL (dynalite): reads check expiry anyway.
    const name = (err as { name?: unknown }).name;
    if (name !== 'ValidationException' && name !== 'UnknownOperationException') throw err;
  }
  return created;
}
