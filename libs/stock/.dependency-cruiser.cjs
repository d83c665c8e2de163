/**
 * The layers of the stock library, lowest first: the kernel files at the root (errors, fault points,
 * the strategy interface, options, lock events) → infrastructure (redis/, persistence/) → compositions
 * (compose/) → one folder per strategy (strategies/<name>/) → the registry → placement/ → the module.
 * Nothing imports a layer above it, and no strategy folder imports another.
 */
const KERNEL = '^src/(errors|fault-points|store-errors|stock-strategy|stock\\.options|lock-events)\\.ts$';
const ABOVE_INFRA = '^src/(compose|strategies|placement)/|^src/(strategy-registry|stock\\.module|index)\\.ts$';
const TESTS = '\\.(spec|int-spec)\\.ts$|^src/testing/';

module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
    { name: 'kernel-imports-no-folder', comment: 'The root kernel is the bottom layer.', severity: 'error', from: { path: KERNEL }, to: { path: '^src/[^/]+/' } },
    { name: 'infra-stays-below', severity: 'error', from: { path: '^src/(redis|persistence)/', pathNot: TESTS }, to: { path: ABOVE_INFRA } },
    {
      name: 'compose-stays-below-strategies',
      severity: 'error',
      from: { path: '^src/compose/', pathNot: TESTS },
      to: { path: '^src/(strategies|placement)/|^src/(strategy-registry|stock\\.module|index)\\.ts$' },
    },
    {
      name: 'strategy-folders-stand-alone',
      comment: 'A strategy never special-cases or borrows from another one; shared pieces live in compose/.',
      severity: 'error',
      from: { path: '^src/strategies/([^/]+)/' },
      to: { path: '^src/strategies/', pathNot: ['^src/strategies/$1/', '^src/strategies/correctness'] },
    },
    {
      name: 'strategies-stay-below-placement',
      severity: 'error',
      from: { path: '^src/strategies/', pathNot: TESTS },
      to: { path: '^src/placement/|^src/(strategy-registry|stock\\.module|index)\\.ts$' },
    },
    { name: 'placement-stays-below-module', severity: 'error', from: { path: '^src/placement/' }, to: { path: '^src/(stock\\.module|index)\\.ts$' } },
    { name: 'production-code-imports-no-test-helper', severity: 'error', from: { pathNot: TESTS }, to: { path: '^src/testing/' } },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    exclude: { path: '^dist/' },
  },
};
