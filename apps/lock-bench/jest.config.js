/** The lock bench's short run against the real Redis: correctness asserted, timings only printed. */
module.exports = require('../../tools/jest/jest-project.js').jestProject({
  displayName: 'lock-bench',
  rootDir: 'src',
  testTimeout: 300_000,
});
