// One lint config for the workspace; Nx's module-boundary rule keeps the layers apart.
import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';

export default [
  { ignores: ['**/dist/**', '**/node_modules/**', '**/coverage/**', 'bench-results/**', '**/vite.config.*.timestamp*'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx', '**/*.js', '**/*.mjs'],
    languageOptions: { globals: { console: 'readonly', process: 'readonly' } },
    plugins: { '@nx': nx },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: true,
          allow: [],
          depConstraints: [
            // Shared contracts are types, constants and pure functions: they depend on nothing of ours.
            { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: [] },
            // The lock library is plain TypeScript anyone can lift: it depends on nothing of ours.
            { sourceTag: 'type:lock', onlyDependOnLibsWithTags: [] },
            // Inside the locks scope only the lock library itself: the lock bench measures it and nothing else
            // of ours, its command line and the contracts' one declaration of the lock services aside.
            { sourceTag: 'scope:locks', onlyDependOnLibsWithTags: ['scope:locks', 'type:cli', 'type:contracts'] },
            // The command-line kit is commander and our value rules: it depends on nothing of ours.
            { sourceTag: 'type:cli', onlyDependOnLibsWithTags: [] },
            { sourceTag: 'type:domain', onlyDependOnLibsWithTags: ['type:contracts', 'type:lock'] },
            // The control plane (runs, figures, faults) drives the stock strategies and the load tool; no app.
            { sourceTag: 'type:control', onlyDependOnLibsWithTags: ['type:contracts', 'type:lock', 'type:domain', 'type:tool'] },
            { sourceTag: 'type:tool', onlyDependOnLibsWithTags: ['type:contracts', 'type:cli'] },
            { sourceTag: 'scope:dashboard', onlyDependOnLibsWithTags: ['scope:shared'] },
            { sourceTag: 'scope:server', onlyDependOnLibsWithTags: ['scope:shared', 'scope:server', 'scope:locks', 'scope:load'] },
            { sourceTag: 'scope:launcher', onlyDependOnLibsWithTags: ['scope:shared', 'scope:load'] },
            { sourceTag: 'scope:load', onlyDependOnLibsWithTags: ['scope:shared'] },
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:contracts', 'type:domain', 'type:control', 'type:tool', 'type:lock', 'type:cli'] },
            // The e2e project drives the built lab as a process; it imports no project code.
            { sourceTag: 'type:e2e', onlyDependOnLibsWithTags: [] },
          ],
        },
      ],
    },
  },
  {
    // Tests read JSON bodies of many shapes; typing each one would add noise, not safety.
    files: ['**/*.spec.ts', '**/*.int-spec.ts', '**/*.e2e-spec.ts', '**/test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // k6 scripts run inside k6's own runtime (goja), not Node.
    files: ['loadtests/k6/**/*.js'],
    languageOptions: { globals: { __ENV: 'readonly', __VU: 'readonly', __ITER: 'readonly', open: 'readonly' } },
  },
];
