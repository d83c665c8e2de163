/**
 * The dashboard's layers, lowest first: lib/, api/ and i18n/ (pure helpers, the API client, the texts) →
 * hooks/ → components/ → views/ (one per route) → the app shell and router. A layer imports none above it;
 * the shared rules (no circle, no reach into another project's folders) come from
 * tools/dependency-cruiser/base.cjs. Its test helpers (src/test/, *.test.ts(x)) stay out of production code.
 */
const { withRules } = require('../../tools/dependency-cruiser/base.cjs');

const TESTS = '\\.test\\.tsx?$|^src/test/';

module.exports = withRules(
  [
    { name: 'helpers-import-no-ui', severity: 'error', from: { path: '^src/(lib|api|i18n)/', pathNot: TESTS }, to: { path: '^src/(hooks|components|views)/|^src/[^/]+\\.tsx$' } },
    { name: 'hooks-import-no-components', severity: 'error', from: { path: '^src/hooks/', pathNot: TESTS }, to: { path: '^src/(components|views)/|^src/[^/]+\\.tsx$' } },
    { name: 'components-import-no-views', severity: 'error', from: { path: '^src/components/', pathNot: TESTS }, to: { path: '^src/views/|^src/[^/]+\\.tsx$' } },
    { name: 'production-code-imports-no-dashboard-test-helper', severity: 'error', from: { pathNot: TESTS }, to: { path: '^src/test/' } },
  ],
  { includeOnly: '^src/', tsConfig: { fileName: 'tsconfig.json' } },
);
