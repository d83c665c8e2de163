// One lint config for the workspace; Nx's module-boundary rule keeps the layers apart.
import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';

export default [
  { ignores: ['**/dist/**', '**/node_modules/**', '**/coverage/**', 'bench-results/**', '**/vite.config.*.timestamp*'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx', '**/*.js', '**/*.mjs'],
    plugins: { '@nx': nx },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: true,
          allow: [],
          depConstraints: [
            // Shared contracts are pure types and constants: they depend on nothing of ours.
            { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: [] },
            { sourceTag: 'type:domain', onlyDependOnLibsWithTags: ['type:contracts'] },
            { sourceTag: 'type:tool', onlyDependOnLibsWithTags: ['type:contracts'] },
            { sourceTag: 'scope:dashboard', onlyDependOnLibsWithTags: ['scope:shared'] },
            { sourceTag: 'scope:server', onlyDependOnLibsWithTags: ['scope:shared', 'scope:server', 'scope:load'] },
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:contracts', 'type:domain', 'type:tool'] },
          ],
        },
      ],
    },
  },
  {
    // k6 scripts run inside k6's own runtime (goja), not Node.
    files: ['loadtests/k6/**/*.js'],
    languageOptions: { globals: { __ENV: 'readonly', __VU: 'readonly', __ITER: 'readonly', open: 'readonly' } },
  },
];
