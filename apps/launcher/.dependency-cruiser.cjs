/**
 * The launcher: the shared rules (no circle, no reach into another project's folders). Its rooms (lab/,
 * commands/, reports/) add their own rules here as they land. The one known circle (bench.ts ↔
 * bench-scaling.ts, type-only) is in .dependency-cruiser-known-violations.json until the rooms' move
 * breaks it; lint fails on any new one.
 */
const { withRules } = require('../../tools/dependency-cruiser/base.cjs');

module.exports = withRules();
