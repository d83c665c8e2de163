/**
 * The order service is the Nest shell: config/ (validated settings) at the bottom, then rooms that stand
 * apart (http/ the routes and their validation, health/, faults/ the MySQL store-cut proxy), then the
 * wiring (app.module, create-app, main). The control plane is @oversell/lab, reached through its entry.
 */
const { withRules } = require('../../tools/dependency-cruiser/base.cjs');

const TOP = '^src/(app\\.module|create-app|main)\\.ts$';

module.exports = withRules([
  { name: 'config-imports-no-room', severity: 'error', from: { path: '^src/config/' }, to: { path: '^src/[^/]+/', pathNot: '^src/config/' } },
  {
    name: 'rooms-stand-apart',
    comment: 'A room uses config/ and the libraries, never another room.',
    severity: 'error',
    from: { path: '^src/(http|health|faults)/' },
    to: { path: '^src/(http|health|faults)/', pathNot: '^src/$1/' },
  },
  { name: 'rooms-import-no-wiring', severity: 'error', from: { path: '^src/[^/]+/' }, to: { path: TOP } },
]);
