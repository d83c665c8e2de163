/**
 * What every jest project of the workspace shares: node, swc (typescript-transform.js), and every
 * @oversell package read from its source as tsconfig.base.json's paths name it, so a test never runs
 * against a stale build of a library. Each project's config gives its name, its folder and what is its own.
 */
const { join } = require('node:path');
const { compilerOptions } = require('../../tsconfig.base.json');

const WORKSPACE = join(__dirname, '..', '..');

const SOURCES = Object.fromEntries(Object.entries(compilerOptions.paths).map(([name, [file]]) => [`^${name}$`, join(WORKSPACE, file)]));

/** Unit specs and integration specs by default. */
function jestProject({ moduleNameMapper = {}, ...project }) {
  return {
    testEnvironment: 'node',
    testMatch: ['**/*.spec.ts', '**/*.int-spec.ts'],
    transform: require('./typescript-transform.js'),
    moduleNameMapper: { ...SOURCES, ...moduleNameMapper },
    ...project,
  };
}

module.exports = { jestProject };
