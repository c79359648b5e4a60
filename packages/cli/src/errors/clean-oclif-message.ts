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
  // oclif's Plugin#load reports a folder without a package.json with a util.inspect() dump of its
  // options; the folder is the one thing a user needs from it.
  text = text.replace(/^could not find package\.json with \{[\s\S]*?root: '([^']*)'[\s\S]*\}$/u, "no package.json in '$1'");
  text = text.replace(/\n+See more help with --help\s*$/u, '');
  text = text.replace(/^The following errors? occurred:\s*/u, '');
  const parsing = /^Parsing (--[^\s]+)\s*\n\t([\s\S]*)$/u.exec(text);
  if (parsing) {
    const [, flag = '', inner = ''] = parsing;
    text = inner.startsWith('argument ') ? inner : `argument ${flag}: ${inner}`;
  }
  return joinLines(
    text
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line.length > 0),
  );
}

/**
 * One line from several: separate statements are joined with `; `, and the items under a line
 * ending in `:` (oclif's "Missing 1 required arg:" then `name  description` rows) follow it as a
 * comma-separated list, each row as `name (description)`.
 */
function joinLines(lines: readonly string[]): string {
  const parts: string[] = [];
  let listOpen = false;
  for (const line of lines) {
    const last = parts.length - 1;
    if (listOpen && last >= 0) {
      const item = line.replace(/^(\S+)\s{2,}(.+)$/u, '$1 ($2)');
      parts[last] = parts[last]!.endsWith(':') ? `${parts[last]} ${item}` : `${parts[last]}, ${item}`;
      continue;
    }
    parts.push(line);
    listOpen = line.endsWith(':');
  }
  return parts.join('; ');
}
