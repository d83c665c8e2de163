/** Unit specs of the shared pure functions (*.spec.ts). */
module.exports = {
  displayName: 'contracts',
  testEnvironment: 'node',
  rootDir: 'src',
  testMatch: ['**/*.spec.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/../tsconfig.spec.json' }] },
};
