import type { DirectFlags } from './parse-direct-argv.js';

/**
 * The direct parser's flags of each built-in command (base flags included), by command id.
 *
 * Generated at build time: `scripts/bundle.mjs` replaces this module in the CLI's bundle
 * (`dist/fast/main.cjs`, what `bin/run.cjs` runs) with the table `scripts/direct-flag-table.mjs`
 * reads from the command classes' static flags, and fails the build on any flag feature the
 * direct parser does not model. Unbundled (`dist/main.js`, the package's exported `main`), the
 * table is empty, so every call there goes through oclif.
 *
 * @example
 * ```ts
 * FLAG_TABLE.get; // { store: { type: 'string' }, ..., id: { type: 'integer', required: true } }
 * ```
 */
export const FLAG_TABLE: Readonly<Record<string, DirectFlags>> = {};
