/** API and run tests against the real service, Redis and MariaDB. */
module.exports = {
  displayName: 'order-service',
  testEnvironment: 'node',
  rootDir: '.',
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.e2e-spec.ts'],
  transform: require('../../tools/jest/typescript-transform.js'),
  moduleNameMapper: {
    '^@oversell/cli$': '<rootDir>/../../libs/cli/src/index.ts',
    '^@oversell/contracts$': '<rootDir>/../../libs/contracts/src/index.ts',
    '^@oversell/contracts/testing$': '<rootDir>/../../libs/contracts/src/testing/index.ts',
    '^@oversell/lab$': '<rootDir>/../../libs/lab/src/index.ts',
    '^@oversell/locks$': '<rootDir>/../../libs/locks/src/index.ts',
    '^@oversell/locks/testing$': '<rootDir>/../../libs/locks/src/testing/index.ts',
    '^@oversell/stock$': '<rootDir>/../../libs/stock/src/index.ts',
    '^@oversell/stock/testing$': '<rootDir>/../../libs/stock/src/testing/index.ts',
    '^@oversell/loadtests$': '<rootDir>/../../loadtests/runner/index.ts',
  },
  globalSetup: '<rootDir>/../../libs/stock/src/testing/global-setup.ts',
  testTimeout: 120_000,
};
