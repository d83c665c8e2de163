/** The lock bench's short run against the real Redis: correctness asserted, timings only printed. */
module.exports = {
  displayName: 'lock-bench',
  testEnvironment: 'node',
  rootDir: 'src',
  testMatch: ['**/*.spec.ts', '**/*.int-spec.ts'],
  transform: require('../../tools/jest/typescript-transform.js'),
  moduleNameMapper: {
    '^@oversell/cli$': '<rootDir>/../../../libs/cli/src/index.ts',
    '^@oversell/locks$': '<rootDir>/../../../libs/locks/src/index.ts',
    '^@oversell/locks/testing$': '<rootDir>/../../../libs/locks/src/testing/index.ts',
  },
  testTimeout: 300_000,
};
