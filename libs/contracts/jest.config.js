/** Unit specs of the shared pure functions (*.spec.ts). */
module.exports = {
  displayName: 'contracts',
  testEnvironment: 'node',
  rootDir: 'src',
  testMatch: ['**/*.spec.ts'],
  transform: require('../../tools/jest/typescript-transform.js'),
};
