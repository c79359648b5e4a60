/**
 * oclif decorates parse errors for a terminal (colours, "See more help with --help", a
 * "Parsing --flag" banner). The JSON contract wants one plain sentence, so those are removed.
 */

const ANSI = /\u001b\[[0-9;]*m/g;

/**
 * Plain one-line text of an oclif error message.
 *
 * @example
 * ```ts
 * cleanOclifMessage('Parsing --id \n\tinvalid int value: \'x\'\nSee more help with --help');
 * // "argument --id: invalid int value: 'x'"
 * ```
 */
export function cleanOclifMessage(message: string): string {
  let text = message.replace(ANSI, '');
  text = text.replace(/\n+See more help with --help\s*$/u, '');
  text = text.replace(/^The following errors? occurred:\s*/u, '');
  const parsing = /^Parsing (--[^\s]+)\s*\n\t([\s\S]*)$/u.exec(text);
  if (parsing) {
    const [, flag = '', inner = ''] = parsing;
    text = inner.startsWith('argument ') ? inner : `argument ${flag}: ${inner}`;
  }
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.length > 0)
    .join('; ');
}
