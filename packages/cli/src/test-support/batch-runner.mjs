#!/usr/bin/env node
// Runs many CLI calls one after another in this one process, through the entry point that
// bin/run.js uses (the stderr guard installed before oclif loads, then `main`). Reads
// `[{ args, cwd, env }]` as JSON on stdin and prints `[{ code, stdout }]` as JSON. Anything a call
// writes to stderr past the guard reaches this process's real stderr, which the caller asserts is
// empty for the whole batch. Why: spawning Node once per case made a corpus take minutes on a
// loaded machine; one process per batch keeps the work (and its verdict) independent of load.
import { Buffer } from 'node:buffer';

const dist = new URL('../../dist/', import.meta.url);
const binUrl = new URL('../../bin/run.js', import.meta.url).href;

async function readStdin() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

const calls = JSON.parse(await readStdin());
const { guardStderr } = await import(new URL('output/stderr-guard.js', dist).href);
guardStderr([]);
const { main } = await import(new URL('main.js', dist).href);

const realWrite = process.stdout.write.bind(process.stdout);
const baseEnv = { ...process.env };
const results = [];
for (const call of calls) {
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
  results.push({ code, stdout });
}
realWrite(JSON.stringify(results), () => process.exit(0));
