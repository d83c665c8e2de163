/**
 * The rooms of the control plane, lowest first: the kernel at the root (Redis keys, pub/sub reading, the
 * API error, the options) → figures/ (what every instance counts) → faults/ → runs/ (queue, worker,
 * executor) → the module and the entry. Nothing imports a room above it.
 */
const { TESTS, withRules } = require('../../tools/dependency-cruiser/base.cjs');

const KERNEL = '^src/(redis-keys|pubsub-message|error-body|lab\\.options)\\.ts$';
const ENTRY = '^src/(lab\\.module|index)\\.ts$';

module.exports = withRules([
  { name: 'kernel-imports-no-room', comment: 'The root kernel is the bottom layer.', severity: 'error', from: { path: KERNEL }, to: { path: '^src/[^/]+/' } },
  { name: 'instances-stay-below-figures', severity: 'error', from: { path: '^src/instances/', pathNot: TESTS }, to: { path: `^src/(figures|runs|faults)/|${ENTRY}` } },
  { name: 'figures-stay-below-runs', severity: 'error', from: { path: '^src/figures/', pathNot: TESTS }, to: { path: `^src/(runs|faults)/|${ENTRY}` } },
  { name: 'faults-stay-below-runs', severity: 'error', from: { path: '^src/faults/', pathNot: TESTS }, to: { path: `^src/runs/|${ENTRY}`, dependencyTypes: ['local', 'import'], dependencyTypesNot: ['type-only'] } },
  { name: 'rooms-import-no-entry', severity: 'error', from: { path: '^src/[^/]+/' }, to: { path: ENTRY } },
]);
