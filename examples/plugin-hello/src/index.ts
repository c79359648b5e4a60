/**
 * @session-checkpoint/plugin-hello: an example plugin for the session-checkpoint CLI. Install it
 * with `session-checkpoint plugins link <dir>` (or `plugins install`), then run
 * `session-checkpoint hello --store app.sqlite`.
 *
 * @packageDocumentation
 */
export { default as Hello } from './commands/hello.js';
