/** Unit specs (*.spec.ts) and integration specs against the real Redis, MariaDB, etcd, ZooKeeper and RedLock nodes (*.int-spec.ts). */
module.exports = require('../../tools/jest/jest-project.js').jestProject({
  displayName: 'locks',
  rootDir: 'src',
  testTimeout: 60_000,
  // A standalone etcd and ZooKeeper (installed from Debian's packages the first time) and five redis-servers for RedLock.
  globalSetup: '<rootDir>/testing/lock-servers-global-setup.ts',
});
