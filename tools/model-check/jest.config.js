/** The trail converter's unit tests, and the check of every pair with spin against its checked-in trace. */
module.exports = {
  displayName: 'model-check',
  testEnvironment: 'node',
  rootDir: 'src',
  testMatch: ['**/*.spec.ts'],
  transform: require('../jest/typescript-transform.js'),
  moduleNameMapper: { '^@oversell/contracts$': '<rootDir>/../../../libs/contracts/src/index.ts' },
  // Every pair compiles its verifier with gcc: seconds each.
  testTimeout: 180_000,
};
