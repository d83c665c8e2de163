/**
 * The order service is the Nest shell: config/ (validated settings) at the bottom, then rooms that stand
 * apart (http/ the routes and their validation, lab-figures/, health/, faults/ the MySQL store-cut
 * proxy), then the wiring (app.module, create-app, main). The control plane is @oversell/lab, reached
 * through its entry.
 */
const { withRules } = require('../../tools/dependency-cruiser/base.cjs');

module.exports = withRules([
  {
    name: 'rooms-stand-apart',
    comment: 'A room uses config/ and the libraries, never another room; config/ uses no room.',
    severity: 'error',
    from: { path: '^src/([^/]+)/' },
    to: { path: '^src/[^/]+/', pathNot: ['^src/$1/', '^src/config/'] },
  },
  { name: 'rooms-import-no-wiring', severity: 'error', from: { path: '^src/[^/]+/' }, to: { path: '^src/(app\\.module|create-app|main)\\.ts$' } },
]);
