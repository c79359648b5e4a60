import tseslint from 'typescript-eslint';
import layers from './tools/lint/src/index.js';

/*
 * Lint is here for one job that prose cannot do: keep the package layering honest (see
 * tools/lint/src/layers.js). Each package runs `eslint src` as its Nx `lint` target.
 */
export default [
  { ignores: ['**/dist/**', '**/out-tsc/**', '**/node_modules/**', '**/.nx/**'] },
  {
    files: ['**/*.ts', '**/*.js', '**/*.mjs'],
    languageOptions: { parser: tseslint.parser, ecmaVersion: 2022, sourceType: 'module' },
    plugins: { 'session-checkpoint': layers },
    rules: { 'session-checkpoint/layers': 'error' },
  },
];
