/** redis4 is the npm alias of redis@4 (node-redis 4), used by test/store/redis-conformance.test.ts beside redis 5; typed as redis 5's createClient on purpose (the store uses sendCommand only). */
declare module 'redis4' {
  export { createClient } from 'redis';
}
