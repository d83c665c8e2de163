export { runOrdersAcrossProcesses, type ConcurrentOrders, type ConcurrentOrdersResult } from './concurrent-orders';
export { createStockTestApp, useStockTestApp, type StockTestApp } from './stock-test-app';
export { freshKeyPrefix, freshProductId, testMysqlSettings, testRedisOptions } from './test-services';
export { CuttableProxy } from './cuttable-proxy';
