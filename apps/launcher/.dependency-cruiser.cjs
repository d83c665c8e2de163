/**
 * The launcher's rooms, lowest first: lab/ (the lab's runtime: instances, the nginx gateway, lock services,
 * sessions, the client of a running lab) → reports/ (the markdown, JSON and chart writers) → commands/ (each
 * command's entry file and the bench's yardsticks). reports/ may name the lab's types but runs none of it,
 * so a report can be written again from its JSON alone. The shared rules (no circle, no reach into another
 * project's folders, no test helper in production code) come from tools/dependency-cruiser/base.cjs.
 */
const { TESTS, withRules } = require('../../tools/dependency-cruiser/base.cjs');

module.exports = withRules(
  [
    { name: 'lab-imports-no-room-above', severity: 'error', from: { path: '^src/lab/', pathNot: TESTS }, to: { path: '^src/(commands|reports)/' } },
    { name: 'reports-import-no-commands', severity: 'error', from: { path: '^src/reports/', pathNot: TESTS }, to: { path: '^src/commands/' } },
    { name: 'reports-run-no-lab', severity: 'error', from: { path: '^src/reports/', pathNot: TESTS }, to: { path: '^src/lab/', dependencyTypesNot: ['type-only'] } },
  ],
  // The libraries keep their own rules (and their own configs); here only the launcher's rooms.
  { includeOnly: '^src/' },
);
