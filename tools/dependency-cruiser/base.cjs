/**
 * The rules every project's dependency-cruiser config starts from: no import circle, no reach into a
 * sibling project's folders (a project is used through its package name, its public entry), and no
 * production file leaning on a test helper. A project's own config adds its layers with `withRules`.
 */
const TESTS = '\\.(spec|int-spec|e2e-spec)\\.ts$|(^|/)(test|testing)/';

const base = [
  { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
  {
    name: 'no-sibling-project',
    comment: 'Another app or library is reached through its package (@oversell/…), never by a relative path into its folders.',
    severity: 'error',
    from: {},
    to: { path: '^\\.\\./\\.\\./(apps|libs|loadtests)/|^(\\.\\./)+(apps|libs)/' },
  },
  {
    name: 'no-package-internals',
    comment: "A workspace package is imported by its entry (@oversell/x or @oversell/x/testing), never by a path into its src.",
    severity: 'error',
    from: {},
    to: { path: '(^|/)(libs|apps)/[^/]+/src/', pathNot: '^src/' },
  },
  { name: 'production-code-imports-no-test-helper', severity: 'error', from: { pathNot: TESTS }, to: { path: '^src/testing/' } },
];

const options = {
  doNotFollow: { path: 'node_modules' },
  tsPreCompilationDeps: true,
  exclude: { path: '(^|/)dist/' },
};

/** A project's config: the base rules, then its own (layers, rooms). */
const withRules = (rules = [], extraOptions = {}) => ({ forbidden: [...base, ...rules], options: { ...options, ...extraOptions } });

module.exports = { TESTS, withRules };
