/**
 * The Redis clients RedisStore takes, as one function that sends a command: a connected node-redis
 * client (`redis` 4 or 5: `sendCommand([...])`) or an ioredis instance (`call(name, ...args)`).
 * Scripts go by EVALSHA (the script's SHA-1), and by EVAL when the server does not know it yet
 * (NOSCRIPT: after a restart or SCRIPT FLUSH): one round trip each time but the first.
 */
import { createHash } from 'node:crypto';
import { invalid } from '../../shared/options.js';

/** The part of a node-redis client (`createClient()`, connected) RedisStore uses. */
export interface NodeRedisLike {
  /** Sends one command (node-redis 4 or 5). */
  sendCommand(args: string[]): Promise<unknown>;
}
/** The part of an ioredis instance (`new Redis()`) RedisStore uses. */
export interface IoRedisLike {
  /** Sends one command (ioredis). */
  call(command: string, ...args: string[]): Promise<unknown>;
}
/** What `RedisStore` takes as `client`: a connected node-redis client or an ioredis instance. */
export type RedisClientLike = NodeRedisLike | IoRedisLike;

export type Send = (args: string[]) => Promise<unknown>;

/** One command sender over either client; refuses anything else (KitError). */
export function senderOf(client: unknown): Send {
  const c = client as Partial<NodeRedisLike & IoRedisLike> | null;
  if (typeof c === 'object' && c !== null && typeof c.call === 'function') {
    const call = c.call.bind(c);
    return (args) => call(args[0], ...args.slice(1));
  }
  if (typeof c === 'object' && c !== null && typeof c.sendCommand === 'function') {
    const send = c.sendCommand.bind(c);
    return (args) => send(args);
  }
  return invalid('Option RedisStore.client is required: a connected node-redis client (await createClient({ url }).connect()) or an ioredis instance (new Redis(url))');
}

/** A Lua script run by EVALSHA, loaded by EVAL when the server lacks it. */
export class Script {
  readonly sha: string;
  constructor(readonly text: string) {
    this.sha = createHash('sha1').update(text).digest('hex');
  }

  async run(send: Send, keys: readonly string[], args: readonly (string | number)[]): Promise<unknown> {
    const tail = [String(keys.length), ...keys, ...args.map(String)];
    try {
      return await send(['EVALSHA', this.sha, ...tail]);
    } catch (err) {
      if (!/NOSCRIPT/.test(String((err as Error)?.message))) throw err;
      return send(['EVAL', this.text, ...tail]);
    }
  }
}
