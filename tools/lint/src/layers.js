/**
 * Which layer may import which, by Nx project tag (`nx.tags` in each package.json). Dependencies
 * point downward only: core <- conformance/adapter/bundle <- cli <- plugins and tools (the cli's
 * `migrate` also loads the langgraph and mastra packages, on use only; `threads`, `state`, `diff`
 * and `inspect` the framework-free `rows` subpaths of langgraph, openai-agents, ai-sdk and mastra,
 * bundled into the binary). The ai-sdk and mastra packages sit beside langgraph and
 * openai-agents: core at run time, adapters and bundles in tests.
 * `test` lists what test files may import on top (the fixtures package, adapters to test against).
 */
export const LAYER_RULES = {
  'layer:core': { runtime: [], test: ['layer:fixtures'] },
  'layer:conformance': { runtime: ['layer:core'], test: ['layer:fixtures'] },
  'layer:adapter': { runtime: ['layer:core'], test: ['layer:conformance', 'layer:fixtures'] },
  'layer:bundle': { runtime: ['layer:core'], test: ['layer:adapter', 'layer:conformance', 'layer:fixtures'] },
  'layer:langgraph': { runtime: ['layer:core'], test: ['layer:adapter', 'layer:bundle', 'layer:fixtures'] },
  'layer:openai-agents': { runtime: ['layer:core'], test: ['layer:adapter', 'layer:bundle', 'layer:fixtures'] },
  'layer:ai-sdk': { runtime: ['layer:core'], test: ['layer:adapter', 'layer:bundle', 'layer:fixtures'] },
  'layer:mastra': { runtime: ['layer:core'], test: ['layer:adapter', 'layer:bundle', 'layer:fixtures'] },
  'layer:cli': { runtime: ['layer:core', 'layer:adapter', 'layer:bundle', 'layer:langgraph', 'layer:openai-agents', 'layer:ai-sdk', 'layer:mastra'], test: ['layer:conformance', 'layer:fixtures'] },
  'layer:plugin': { runtime: ['layer:cli', 'layer:core', 'layer:adapter', 'layer:bundle'], test: ['layer:fixtures'] },
  'layer:tool': { runtime: ['*'], test: ['*'] },
  // tools/fixtures: the Python reference's fixture files, for tests only; it imports nothing of ours.
  'layer:fixtures': { runtime: [], test: [] },
};

/**
 * Packages a layer must not import directly, whatever the file: the CLI reaches storage only
 * through the adapter packages, and core has no runtime dependencies at all (checked separately).
 */
export const FORBIDDEN_PACKAGES = {
  'layer:cli': ['kysely', 'better-sqlite3', 'pg'],
  'layer:bundle': ['kysely', 'better-sqlite3', 'pg'],
};

/**
 * Names an adapter must not import from core: adapters store and fetch rows; canonicalising,
 * hashing and verifying happen in the store facade only.
 */
export const ADAPTER_FORBIDDEN_NAMES = [
  'canonicalize',
  'canonicalizeJson',
  'canonicalPayloadFromJson',
  'canonicalPayloadFromValue',
  'checkStoredPayload',
  'sha256Hex',
  'verifyRow',
  'verifyRows',
  'rowFailure',
];
