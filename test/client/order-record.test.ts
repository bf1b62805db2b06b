import { memoryFactory } from '../store/harness.js';
import { orderRecordBehaviour } from './order-record-behaviour.js';

describe('the order\'s record on a MemoryStore', () => {
  orderRecordBehaviour(memoryFactory);
});
