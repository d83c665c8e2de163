/** API and run tests against the real service, Redis and MariaDB. */
module.exports = require('../../tools/jest/jest-project.js').jestProject({
  displayName: 'order-service',
  rootDir: '.',
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.e2e-spec.ts'],
  globalSetup: '<rootDir>/../../libs/stock/src/testing/global-setup.ts',
  testTimeout: 120_000,
});
