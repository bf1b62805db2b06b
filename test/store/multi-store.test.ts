/** Several shops sharing one MemoryStore (see multi-store-behaviour.ts). */
import { MemoryStore } from 'crossborder-merchant-kit';
import { multiStoreSuite } from './multi-store-behaviour.js';

multiStoreSuite('MemoryStore', async () => new MemoryStore());
