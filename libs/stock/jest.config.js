/** Unit specs (*.spec.ts) and integration specs against the real Redis and MariaDB (*.int-spec.ts). */
module.exports = require('../../tools/jest/jest-project.js').jestProject({
  displayName: 'stock',
  rootDir: 'src',
  globalSetup: '<rootDir>/testing/global-setup.ts',
  testTimeout: 60_000,
  // A stock app a failed test could not close (a queue worker blocked on a cut connection) keeps its
  // sockets open, and jest would wait for them for good: the failure is reported, then jest exits.
  forceExit: true,
});
