import { defineCommand } from '../command/define-command.js';
import { storeLocation } from '../store/store-location.js';

export default defineCommand({
  id: 'init',
  summary: 'Initialize or verify a checkpoint store.',
  description: 'Create the store if it is missing, or verify that an existing file or database is a compatible store. Safe to repeat.',
  examples: [
    '<%= config.bin %> <%= command.id %> --store ./checkpoints.sqlite',
    '<%= config.bin %> <%= command.id %> --database-url postgres://app@localhost:5432/app',
    'SESSION_CHECKPOINT_STORE=./checkpoints.sqlite <%= config.bin %> <%= command.id %>',
  ],
  flags: {},
  async action({ storeSelection, openStore }) {
    await openStore({ create: true });
    return { store: storeLocation(storeSelection()), schema_version: 1 };
  },
});
