/**
 * The lock library: the pieces at the root (the interface, holding, spin, observation, Lua loading,
 * clock) are composed by the locks, one folder each. The root never imports a lock folder (only the
 * index re-exports them), and no lock folder imports another, so any lock can be lifted out alone.
 */
const TESTS = '\\.(spec|int-spec)\\.ts$|(^|/)testing/';

module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
    { name: 'root-imports-no-lock-folder', severity: 'error', from: { path: '^src/[^/]+\\.ts$', pathNot: ['^src/index\\.ts$', TESTS] }, to: { path: '^src/[^/]+/' } },
    // failover/ is no lock: it puts several locks through one fault (a Sentinel failover) side by side.
    { name: 'lock-folders-stand-alone', severity: 'error', from: { path: '^src/([^/]+)/', pathNot: ['^src/testing/', '^src/failover/'] }, to: { path: '^src/[^/]+/', pathNot: ['^src/$1/', '^src/testing/'] } },
    { name: 'production-code-imports-no-test-helper', severity: 'error', from: { pathNot: TESTS }, to: { path: '^src/testing/' } },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
  },
};
