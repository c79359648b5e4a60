#!/usr/bin/env node
// Every outcome is one JSON document on stdout, even a failure to load the CLI itself.
import module from 'node:module';

// Node >= 22.1 caches compiled code between runs (start-up is mostly module compilation);
// a no-op on Node 20.
module.enableCompileCache?.();

function exit(code) {
  // Exit once stdout has drained: a lingering handle (a pool timer) must not keep us alive.
  process.stdout.write('', () => process.exit(code));
}

try {
  // main() installs the stderr guard before anything loads oclif (whose modules keep a reference
  // to process.stderr.write); the bundle's static imports never reach oclif.
  const { main } = module.createRequire(import.meta.url)('../dist/fast/main.cjs');
  exit(await main(process.argv.slice(2), import.meta.url));
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  process.stdout.write(`${JSON.stringify({ ok: false, error: message, type: 'InternalError' }, null, 2)}\n`);
  exit(1);
}
