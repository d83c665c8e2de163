/**
 * How every jest project compiles TypeScript: swc, per file, with no type check (each project's lint
 * runs `tsc --noEmit` on its specs once). Legacy decorators with their metadata, as tsc emits them for
 * Nest's injection and TypeORM's columns.
 */
module.exports = {
  '^.+\\.ts$': [
    require.resolve('@swc/jest'),
    {
      jsc: {
        parser: { syntax: 'typescript', decorators: true },
        transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
        target: 'es2022',
        keepClassNames: true,
      },
      module: { type: 'commonjs' },
      sourceMaps: 'inline',
    },
  ],
};
