#!/usr/bin/env node
// Runs many CLI calls one after another in this one process, through the entry point bin/run.cjs
// uses (dist/fast/main.cjs: the stderr guard, then `main`). Two modes:
// - batch (default): reads `[{ args, cwd, env }]` as JSON on stdin, prints `[{ code, stdout }]`;
// - `--lines`: reads one call per stdin line and answers each with one line `{ code, stdout }`,
//   so a test can prepare files between calls while the process lives (a session).
// Anything a call writes to stderr past the guard reaches this process's real stderr, which the
// caller asserts is empty. Why: spawning Node once per case made a corpus take minutes on a
// loaded machine; one process per batch keeps the work (and its verdict) independent of load.
import { Buffer } from 'node:buffer';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';

const require = createRequire(import.meta.url);
const binUrl = new URL('../../bin/run.cjs', import.meta.url).href;
const { guardStderr } = await import(new URL('../../dist/output/stderr-guard.js', import.meta.url).href);
guardStderr([]);
const { main } = require('../../dist/fast/main.cjs');

const realWrite = process.stdout.write.bind(process.stdout);
const baseEnv = { ...process.env };

async function runCall(call) {
  for (const key of Object.keys(process.env)) if (!(key in baseEnv)) delete process.env[key];
  Object.assign(process.env, baseEnv);
  for (const [key, value] of Object.entries(call.env ?? {})) {
    if (value === null) delete process.env[key];
    else process.env[key] = value;
  }
  process.chdir(call.cwd);
  guardStderr(call.args);
  const listeners = { uncaughtException: process.listeners('uncaughtException'), unhandledRejection: process.listeners('unhandledRejection') };
  let stdout = '';
  process.stdout.write = (chunk, encoding, callback) => {
    stdout += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    const done = typeof encoding === 'function' ? encoding : callback;
    if (typeof done === 'function') queueMicrotask(done);
    return true;
  };
  let code;
  try {
    code = await main(call.args, binUrl);
  } catch (error) {
    code = -1;
    stdout += `batch-runner: main threw ${String(error)}`;
  } finally {
    process.stdout.write = realWrite;
    process.exitCode = undefined;
    // main() adds its late-failure handlers on every call; keep them from piling up.
    for (const [event, before] of Object.entries(listeners)) {
      for (const listener of process.listeners(event)) if (!before.includes(listener)) process.off(event, listener);
    }
  }
  return { code, stdout };
}

if (process.argv.includes('--lines')) {
  for await (const line of createInterface({ input: process.stdin })) {
    if (line.trim() === '') continue;
    const result = await runCall(JSON.parse(line));
    // U+2028/U+2029 escaped: a reader splitting lines the way Node 24's readline does must see one line.
    await new Promise((resolve) => realWrite(`${JSON.stringify(result).replace(/[\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`)}\n`, resolve));
  }
  process.exit(0);
} else {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  const results = [];
  for (const call of JSON.parse(Buffer.concat(chunks).toString('utf8'))) results.push(await runCall(call));
  realWrite(JSON.stringify(results), () => process.exit(0));
}
