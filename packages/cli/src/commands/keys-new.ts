import { resolve } from 'node:path';
import { loadKeyFile } from '@session-checkpoint/core';
import { defineCommand } from '../command/define-command.js';
import { flag } from '../command/flags.js';
import { UsageError } from '../errors/usage-error.js';
import { expandHome } from '../input/expand-home.js';

/**
 * `keys new`: writes a new key file (mode 0600, never over an existing file) and prints its key
 * ids, never a secret. With `--from OLD`, the new file holds OLD's keys too, the new one active:
 * the keyring of a rotation (old keys read, the new one writes).
 */
export default defineCommand({
  id: 'keys:new',
  summary: 'Write a new key file for a sealed store.',
  description: [
    'Generate a new 256-bit key and write it to a new key file, owner-only (mode 0600 whatever the umask). An existing file is never overwritten.',
    'With --from OLD, the new file also holds every key of OLD, and the new key is the active one: old rows stay readable, new rows are sealed with the new key (the keyring of a rotation, see rekey). OLD is left as it is.',
    'Prints the file, the active key id and every key id; never a secret. Keep key files out of the store directory and its backups, and back them up on their own.',
  ].join('\n'),
  examples: [
    '<%= config.bin %> keys new --output ~/.config/app/checkpoints.keys',
    '<%= config.bin %> keys new --output rotated.keys --from checkpoints.keys',
  ],
  flags: {
    output: flag.string({ description: 'Key file to write (must not exist).', required: true }),
    id: flag.string({ description: 'Id of the new key (1 to 64 letters, digits and . _ : -). Default is k-<UTC date>-<6 random hex digits>.' }),
    from: flag.string({ description: 'An existing key file whose keys the new file keeps (for reading); the new key becomes the active one.' }),
  },
  async action({ flags }) {
    if (flags['key-file'] !== undefined) throw new UsageError('keys new takes no --key-file: use --from to keep the keys of an existing file');
    if (flags.output === '') throw new UsageError('--output must not be empty');
    const { Keyring, writeKeyFile } = await import('@session-checkpoint/core');
    const output = resolve(expandHome(flags.output));
    const fresh = Keyring.generate(flags.id);
    const keys = flags.from === undefined ? fresh : (await loadKeyFile(resolve(expandHome(flags.from)))).with(fresh);
    await writeKeyFile(output, keys);
    return { output, active: keys.activeId, keys: [...keys.ids] };
  },
});
