/** Unit specs (*.spec.ts) and integration specs against the real Redis, MariaDB and etcd (*.int-spec.ts). */
module.exports = {
  displayName: 'locks',
  testEnvironment: 'node',
  rootDir: 'src',
  testMatch: ['**/*.spec.ts', '**/*.int-spec.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/../tsconfig.spec.json' }] },
  testTimeout: 60_000,
  // A standalone etcd for the etcd lock's tests (installed from Debian's packages the first time).
  globalSetup: '<rootDir>/testing/etcd-global-setup.ts',
};
