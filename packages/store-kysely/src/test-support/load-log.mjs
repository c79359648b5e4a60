// `node --import ./load-log.mjs`: records every ES module the process loads (see load-log-hooks.mjs).
import { register } from 'node:module';

register('./load-log-hooks.mjs', import.meta.url);
