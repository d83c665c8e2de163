/** Tests of the whole lab: real instances (built dist), the gateway, Redis and MariaDB. */
module.exports = require('../../tools/jest/jest-project.js').jestProject({
  displayName: 'launcher',
  rootDir: 'src',
  moduleNameMapper: {
    // vega's Node build requires d3's ESM-only packages, which jest's CommonJS loader cannot run (Node can);
    // its browser bundle (UMD, d3 inside, the same version) can.
    '^vega$': '<rootDir>/../../../node_modules/vega/build/vega.js',
  },
  globalSetup: '<rootDir>/testing/global-setup.ts',
  testTimeout: 300_000,
  // A lab a failed test could not stop (a hook timed out while a run was still going) keeps its instances'
  // pipes open, and jest would wait for them for good: the failure is reported, then jest exits.
  forceExit: true,
});
