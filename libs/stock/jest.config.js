/** Unit specs (*.spec.ts) and integration specs against the real Redis and MariaDB (*.int-spec.ts). */
module.exports = {
  displayName: 'stock',
  testEnvironment: 'node',
  rootDir: 'src',
  testMatch: ['**/*.spec.ts', '**/*.int-spec.ts'],
  transform: require('../../tools/jest/typescript-transform.js'),
  moduleNameMapper: {
    '^@oversell/contracts$': '<rootDir>/../../contracts/src/index.ts',
    '^@oversell/locks$': '<rootDir>/../../locks/src/index.ts',
    '^@oversell/locks/testing$': '<rootDir>/../../locks/src/testing/index.ts',
  },
  globalSetup: '<rootDir>/testing/global-setup.ts',
  testTimeout: 60_000,
  // A stock app a failed test could not close (a queue worker blocked on a cut connection) keeps its
  // sockets open, and jest would wait for them for good: the failure is reported, then jest exits.
  forceExit: true,
};
