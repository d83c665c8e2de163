/**
 * The launcher's rooms, lowest first: lab/ (the lab's runtime: instances, the nginx gateway, lock services,
 * sessions, the client of a running lab) → reports/ (the markdown, JSON and chart writers) → commands/ (each
 * command's entry file and the bench's yardsticks). reports/ may name the lab's types but runs none of it,
 * so a report can be written again from its JSON alone.
 */
const TESTS = '\\.(spec|int-spec)\\.ts$|^src/testing/';

module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
    { name: 'lab-imports-no-room-above', severity: 'error', from: { path: '^src/lab/', pathNot: TESTS }, to: { path: '^src/(commands|reports)/' } },
    { name: 'reports-import-no-commands', severity: 'error', from: { path: '^src/reports/', pathNot: TESTS }, to: { path: '^src/commands/' } },
    { name: 'reports-run-no-lab', severity: 'error', from: { path: '^src/reports/', pathNot: TESTS }, to: { path: '^src/lab/', dependencyTypesNot: ['type-only'] } },
    { name: 'production-code-imports-no-test-helper', severity: 'error', from: { pathNot: TESTS }, to: { path: '^src/testing/' } },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // The libraries keep their own rules (and their own configs); here only the launcher's rooms.
    includeOnly: '^src/',
    tsPreCompilationDeps: true,
  },
};
