/** The lock bench: the shared rules (no circle, no reach into another project's folders). */
const { withRules } = require('../../tools/dependency-cruiser/base.cjs');

module.exports = withRules();
