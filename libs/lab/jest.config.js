/** The control plane's unit specs, against the real Redis and MariaDB (the stock library's global setup). */
module.exports = {
  displayName: 'lab',
  testEnvironment: 'node',
  rootDir: 'src',
  testMatch: ['**/*.spec.ts'],
  transform: require('../../tools/jest/typescript-transform.js'),
  moduleNameMapper: {
    '^@oversell/contracts$': '<rootDir>/../../contracts/src/index.ts',
    '^@oversell/contracts/testing$': '<rootDir>/../../contracts/src/testing/index.ts',
    '^@oversell/locks$': '<rootDir>/../../locks/src/index.ts',
    '^@oversell/locks/testing$': '<rootDir>/../../locks/src/testing/index.ts',
    '^@oversell/stock$': '<rootDir>/../../stock/src/index.ts',
    '^@oversell/stock/testing$': '<rootDir>/../../stock/src/testing/index.ts',
    '^@oversell/loadtests$': '<rootDir>/../../../loadtests/runner/index.ts',
  },
  globalSetup: '<rootDir>/../../stock/src/testing/global-setup.ts',
  testTimeout: 120_000,
};
