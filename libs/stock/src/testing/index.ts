export { placeOrderAndDieAt, runOrdersAcrossProcesses, type ConcurrentOrders, type ConcurrentOrdersResult } from './concurrent-orders';
export { createStockTestApp, useOtherStockInstance, useStockTestApp, type StockTestApp } from './stock-test-app';
export { placeAtOnce } from './orders-at-once';
export { freshKeyPrefix, testRedisOptions } from '@oversell/locks/testing';
export { freshProductId, testMysqlSettings } from './test-services';
export { CuttableProxy } from '../redis/cuttable-proxy';
export { PauseNextOrder } from './pause-next-order';
export { placeOrderFrozenAt } from './stop-the-world';
export { until } from './until';
