/** The control plane's unit specs, against the real Redis and MariaDB (the stock library's global setup). */
module.exports = require('../../tools/jest/jest-project.js').jestProject({
  displayName: 'lab',
  rootDir: 'src',
  testMatch: ['**/*.spec.ts'],
  globalSetup: '<rootDir>/../../stock/src/testing/global-setup.ts',
  testTimeout: 120_000,
});
