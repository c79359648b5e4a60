import compact from './compact.js';
import create from './create.js';
import deleteCommand from './delete.js';
import diff from './diff.js';
import exportCommand from './export.js';
import get from './get.js';
import history from './history.js';
import importCommand from './import.js';
import init from './init.js';
import keysNew from './keys-new.js';
import inspect from './inspect.js';
import list from './list.js';
import migrate from './migrate.js';
import pin from './pin.js';
import prune from './prune.js';
import rekey from './rekey.js';
import sessions from './sessions.js';
import state from './state.js';
import stats from './stats.js';
import threads from './threads.js';
import timeline from './timeline.js';
import unpin from './unpin.js';
import verify from './verify.js';

/**
 * Every built-in command, in the order of the command list. The built-in route (main.ts) and
 * oclif's manifest and help (oclif-commands.ts) read this one list; a test checks that it holds
 * every file of this folder.
 */
export const BUILTINS = [compact, create, deleteCommand, diff, exportCommand, get, history, importCommand, init, inspect, keysNew, list, migrate, pin, prune, rekey, sessions, state, stats, threads, timeline, unpin, verify];
