/** Unit specs of the shared pure functions (*.spec.ts). */
module.exports = require('../../tools/jest/jest-project.js').jestProject({ displayName: 'contracts', rootDir: 'src', testMatch: ['**/*.spec.ts'] });
