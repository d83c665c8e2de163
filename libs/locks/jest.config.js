/** Unit specs (*.spec.ts) and integration specs against the real Redis and MariaDB (*.int-spec.ts). */
module.exports = {
  displayName: 'locks',
  testEnvironment: 'node',
  rootDir: 'src',
  testMatch: ['**/*.spec.ts', '**/*.int-spec.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/../tsconfig.spec.json' }] },
  testTimeout: 60_000,
};
