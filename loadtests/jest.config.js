/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/runner'],
  testMatch: ['**/*.spec.ts'],
  transform: require('../tools/jest/typescript-transform.js'),
  // Tests read the contracts' source so they never depend on a stale build of the lib.
  moduleNameMapper: { '^@oversell/cli$': '<rootDir>/../libs/cli/src/index.ts', '^@oversell/contracts$': '<rootDir>/../libs/contracts/src/index.ts' },
  // Load runs and the build in beforeAll take seconds, not milliseconds.
  testTimeout: 60_000,
};
