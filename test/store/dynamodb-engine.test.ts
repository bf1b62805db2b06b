/**
 * DynamoDBStore on dynalite (LevelDB on disk, in a child process, so a killed server comes back with
 * what it wrote): the exactly-once behaviour of engine-behaviour.ts, each store on a client of its own.
 */
import { UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DynamoDBStore } from 'crossborder-merchant-kit/store/dynamodb';
import { engineBehaviour, type EngineHarness } from './engine-behaviour.js';
import { startDynalite, type Dynalite } from './engines/dynalite.js';
import { stallProxy, type StallProxy } from './engines/stall-proxy.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cbk-dynalite-'));
let db: Dynalite;
const proxies: StallProxy[] = [];
beforeAll(async () => { db = await startDynalite({ path: dir }); });
afterAll(async () => {
  for (const p of proxies) await p.close();
  await db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

let tables = 0;
const harness = (): EngineHarness => ({
  async pair({ stallable = false, timeoutMs = 5_000 } = {}) {
    const proxy = stallable ? await stallProxy(db.port) : undefined;
    if (proxy) proxies.push(proxy);
    const tableName = `engine-${tables++}`;
    const direct = db.client();
    const b = new DynamoDBStore({ client: direct, tableName, timeoutMs });
    await b.createTable();
    return {
      a: new DynamoDBStore({ client: db.client({ port: proxy?.port }), tableName, timeoutMs }),
      b,
      stall: (ms) => proxy!.stall(ms),
      steal: async (orderId) => {
        await direct.send(new UpdateItemCommand({
          TableName: tableName, Key: { pk: { S: `O#${orderId}` }, sk: { S: 'lock' } },
          UpdateExpression: 'SET w = :thief', ExpressionAttributeValues: { ':thief': { S: 'a thief' } },
        }));
      },
    };
  },
  stop: () => db.stop(),
  start: () => db.start(),
});

engineBehaviour('DynamoDBStore', harness);
