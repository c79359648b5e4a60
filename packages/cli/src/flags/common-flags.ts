import { directKind, Flags } from './flag-builders.js';
import { parsePythonInt } from './python-int.js';

/*
 * Flag factories shared by several commands, so the same flag reads and documents the same way
 * everywhere (and in plugins built on BaseCommand).
 */

/** The parse function of {@link integerFlag}, marked so the direct parser knows it (src/direct/direct-flags.ts). */
const PARSE_PYTHON_INT = directKind(async (input: string, _context: unknown, options: { name?: string }): Promise<number> => parsePythonInt(input, `--${options.name}`), 'integer');

/**
 * An integer option parsed like Python's `int()` (`0_1` is 1; `abc` is a usage error).
 *
 * @example
 * ```ts
 * static flags = { limit: integerFlag({ default: 20, description: 'Page size' }) };
 * ```
 */
export const integerFlag = Flags.custom<number>({ parse: PARSE_PYTHON_INT });

/**
 * `--namespace`, the namespace to work in. Default is `"default"`.
 *
 * @example
 * ```ts
 * static flags = { namespace: namespaceFlag() };
 * ```
 */
export function namespaceFlag(options: { optional?: boolean; description?: string } = {}) {
  return Flags.string({
    description: options.description ?? 'Namespace of the checkpoints.',
    ...(options.optional ? {} : { default: 'default' }),
  });
}

/** `--apply`: actually perform a destructive or bulk change. Default is a dry run. */
export function applyFlag(description = 'Apply the change; without it the command is a dry run.') {
  return Flags.boolean({ default: false, description });
}
