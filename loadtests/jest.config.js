/** The load runner's specs (*.spec.ts). */
module.exports = require('../tools/jest/jest-project.js').jestProject({
  roots: ['<rootDir>/runner'],
  testMatch: ['**/*.spec.ts'],
  // Load runs and the build in beforeAll take seconds, not milliseconds.
  testTimeout: 60_000,
});
