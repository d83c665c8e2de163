/** Unit specs of the value rules and the help (*.spec.ts). */
module.exports = require('../../tools/jest/jest-project.js').jestProject({ displayName: 'cli', rootDir: 'src', testMatch: ['**/*.spec.ts'] });
