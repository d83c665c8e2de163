/** Unit specs of the value rules and the help (*.spec.ts). */
module.exports = {
  displayName: 'cli',
  testEnvironment: 'node',
  rootDir: 'src',
  testMatch: ['**/*.spec.ts'],
  transform: require('../../tools/jest/typescript-transform.js'),
};
