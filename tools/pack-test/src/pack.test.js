// Packs every published package, checks each tarball, installs the tarballs into a project in the
// OS temp folder and uses them there: the hasher (ESM and CJS), a SQLite store, a bundle round
// trip, the CLI binary and the example plugin installed from its tarball; then a global install
// (`npm i -g`) of the tarballs with the plugin; and attw on every tarball. Slow set-up, generous
// timeouts, no timing verdicts.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, createScratchProject, installGlobally, run, writeFiles } from './scratch-project.js';
import { packedManifestProblems, packPackage, publishedPackages, tarballProblems } from './tarballs.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const packages = publishedPackages(root);
const packDir = mkdtempSync(join(tmpdir(), 'sc-pack-tarballs-'));
const packed = new Map();
let project;

beforeAll(() => {
  for (const pkg of packages) packed.set(pkg.manifest.name, packPackage(pkg.dir, packDir, cleanEnv()));
  project = createScratchProject([...packed.values()].map((p) => p.tarball), root);
});

afterAll(() => {
  rmSync(packDir, { recursive: true, force: true });
  if (project) rmSync(project, { recursive: true, force: true });
});

describe('tarballs', () => {
  it('covers every package under packages/', () => {
    expect(packages.map((p) => p.manifest.name)).toEqual(expect.arrayContaining(['@session-checkpoint/core', '@session-checkpoint/cli']));
  });

  it.each(packages.map((p) => [p.manifest.name, p]))('%s ships LICENSE, README, changelog, no tests, no orphan maps, working links', (name, pkg) => {
    expect(tarballProblems(pkg, packed.get(name).files)).toEqual([]);
  });

  it.each(packages.map((p) => [p.manifest.name, p]))('%s: the packed package.json has no nx, scripts or devDependencies, and prepack/postpack see to it', (name, pkg) => {
    expect(packedManifestProblems(pkg.manifest, packed.get(name).manifest)).toEqual([]);
    expect(packed.get(name).manifest).toMatchObject({ name, version: pkg.manifest.version });
  });

  // are-the-types-wrong on the tarball itself. The packages are ES modules only, so the esm-only
  // profile: it leaves out node10 (no `exports` support) and `require` from CommonJS under
  // TypeScript's node16 resolution, which attw reports as "CJS resolves to ESM" for every entry
  // point by design (docs/releasing.md, "Package checks").
  it.each(packages.map((p) => [p.manifest.name]))('%s: attw --profile esm-only finds no problem', (name) => {
    const attw = join(root, 'node_modules', '.bin', 'attw');
    const result = run(packDir, attw, [packed.get(name).tarball, '--profile', 'esm-only', '--format', 'json', '--no-color']);
    const problems = JSON.parse(result.stdout).analysis?.problems ?? [];
    const ignored = new Set(['node10', 'node16-cjs']);
    expect(problems.filter((problem) => !ignored.has(problem.resolutionKind))).toEqual([]);
    expect(result.status, result.stdout).toBe(0);
  });
});

describe('installed from the tarballs, outside the workspace', () => {
  const node = (file, text) => {
    writeFiles(project, { [file]: text });
    const result = run(project, 'node', [file]);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    return JSON.parse(result.stdout);
  };
  // The installed bin link, run directly: npx may warn on stderr about the machine's npm config.
  const bin = (...args) => run(project, join(project, 'node_modules', '.bin', 'session-checkpoint'), args);
  const cli = (...args) => {
    const result = bin(...args);
    expect(result.stderr).toBe('');
    return { status: result.status, out: result.stdout };
  };

  it('holds one copy of core, shared by every package (core is a peer)', () => {
    const copies = [];
    const walk = (dir) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (!entry.isDirectory()) continue;
        if (path.endsWith(join('@session-checkpoint', 'core'))) copies.push(path);
        walk(path);
      }
    };
    walk(join(project, 'node_modules'));
    expect(copies).toEqual([join(project, 'node_modules', '@session-checkpoint', 'core')]);
  });

  it('imports the hash subpath as ESM', () => {
    const out = node('hash.mjs', "import { canonicalPayloadFromValue } from '@session-checkpoint/core/hash';\nconsole.log(JSON.stringify(canonicalPayloadFromValue({ b: 1, a: 2 })));\n");
    expect(out).toMatchObject({ json: '{"a":2,"b":1}', bytes: 13 });
    expect(out.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('requires the hash subpath from CommonJS', () => {
    const out = node('hash.cjs', "const { canonicalPayloadFromValue } = require('@session-checkpoint/core/hash');\nconsole.log(JSON.stringify(canonicalPayloadFromValue({ b: 1, a: 2 })));\n");
    expect(out).toMatchObject({ json: '{"a":2,"b":1}', bytes: 13 });
  });

  it('opens a SQLite file, creates and reads back a verified checkpoint', () => {
    const out = node('store.mjs', [
      "import { openSqliteStore } from '@session-checkpoint/store-kysely';",
      "const store = await openSqliteStore('./lib.sqlite');",
      "const cp = await store.create({ namespace: 'agent', sessionId: 's-1', payload: { step: 1 } });",
      "const got = await store.get(cp.id, { namespace: 'agent' });",
      'await store.close();',
      'console.log(JSON.stringify({ id: got.id, payload: got.payload, same: got.payloadSha256 === cp.payloadSha256 }));',
      '',
    ].join('\n'));
    expect(out).toEqual({ id: 1, payload: { step: 1 }, same: true });
    expect(existsSync(join(project, 'lib.sqlite'))).toBe(true);
  });

  it('exports a namespace to a bundle and imports it into another store', () => {
    const out = node('bundle.mjs', [
      "import { openSqliteStore } from '@session-checkpoint/store-kysely';",
      "import { importBundle, readBundleFile, writeBundleFile } from '@session-checkpoint/bundle';",
      "const source = await openSqliteStore('./source.sqlite');",
      "await source.create({ namespace: 'app', sessionId: 's-1', payloadJson: '{\"n\": 1.0, \"big\": 12345678901234567890}' });",
      "await writeBundleFile(source, './app.json', { namespace: 'app' });",
      "const target = await openSqliteStore('./target.sqlite');",
      "const report = await importBundle(target, await readBundleFile('./app.json', target.limits), { apply: true });",
      "const copy = await target.get(1, { namespace: 'app' });",
      'await source.close(); await target.close();',
      'console.log(JSON.stringify({ inserted: report.inserted, payloadJson: copy.payloadJson }));',
      '',
    ].join('\n'));
    expect(out).toEqual({ inserted: [1], payloadJson: '{"big":12345678901234567890,"n":1.0}' });
  });

  it('keeps an OpenAI Agents session in a SQLite file (peer @openai/agents-core from the project)', () => {
    const out = node('agents.mjs', [
      "import { CheckpointSession } from '@session-checkpoint/openai-agents';",
      "import { openSqliteStore } from '@session-checkpoint/store-kysely';",
      "const store = await openSqliteStore('./agents.sqlite');",
      "const session = new CheckpointSession(store, { sessionId: 'user-1' });",
      "await session.addItems([{ role: 'user', content: 'hi' }, { type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'hello' }] }]);",
      'const popped = await session.popItem();',
      'const items = await new CheckpointSession(store, { sessionId: \'user-1\' }).getItems(5);',
      'const verify = await store.verify();',
      'await store.close();',
      'console.log(JSON.stringify({ popped: popped.type, items, failures: verify.failures }));',
      '',
    ].join('\n'));
    expect(out).toEqual({ popped: 'message', items: [{ role: 'user', content: 'hi' }], failures: [] });
  });

  // ai@7 and @mastra/core@1 declare engines.node >=22 and >=22.13: on an older Node this check is skipped (CI's Node 24 pass runs it).
  const [major, minor] = process.versions.node.split('.').map(Number);
  it.skipIf(major < 22 || (major === 22 && minor < 13))('keeps an AI SDK chat and a Mastra thread in a SQLite file (peers ai and @mastra/core from the project)', () => {
    const out = node('frameworks.mjs', [
      "import { createChatStore } from '@session-checkpoint/ai-sdk';",
      "import { chatState } from '@session-checkpoint/ai-sdk/rows';",
      "import { CheckpointMemoryStorage } from '@session-checkpoint/mastra';",
      "import { mastraThreadState } from '@session-checkpoint/mastra/rows';",
      "import { openSqliteStore } from '@session-checkpoint/store-kysely';",
      "const store = await openSqliteStore('./frameworks.sqlite');",
      "const chats = createChatStore(store);",
      "await chats.saveChat({ chatId: 'c1', messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'hi' }] }] });",
      "const memory = new CheckpointMemoryStorage(store);",
      "await memory.saveThread({ thread: { id: 't1', resourceId: 'r1', createdAt: new Date(), updatedAt: new Date() } });",
      "await memory.saveMessages({ messages: [{ id: 'm1', threadId: 't1', resourceId: 'r1', role: 'user', createdAt: new Date(), content: { format: 2, parts: [{ type: 'text', text: 'hello' }] } }] });",
      "const result = { chat: (await chats.loadChat('c1')).length, rows: (await chatState(store, { chatId: 'c1' })).messages.length, thread: (await mastraThreadState(store, { threadId: 't1' })).messages.length, failures: (await store.verify()).failures };",
      'await store.close();',
      'console.log(JSON.stringify(result));',
      '',
    ].join('\n'));
    expect(out).toEqual({ chat: 1, rows: 1, thread: 1, failures: [] });
  });

  it('runs the CLI binary: --version, init, create, get', () => {
    const version = JSON.parse(readFileSync(join(project, 'node_modules', '@session-checkpoint', 'cli', 'package.json'), 'utf8')).version;
    const viaNpx = run(project, 'npx', ['--no-install', 'session-checkpoint', '--version']);
    expect(JSON.parse(viaNpx.stdout)).toMatchObject({ ok: true, result: { name: '@session-checkpoint/cli', version } });
    expect(JSON.parse(cli('--version').out)).toMatchObject({ ok: true, result: { version, userAgent: expect.stringContaining(`@session-checkpoint/cli/${version} `) } });
    expect(cli('init', '--store', 'cli.sqlite')).toMatchObject({ status: 0 });
    writeFiles(project, { 'state.json': '{"step": 1, "total": 12345678901234567890}' });
    expect(JSON.parse(cli('create', '--store', 'cli.sqlite', '--session-id', 's-1', '--payload-file', 'state.json').out)).toMatchObject({ ok: true, result: { id: 1 } });
    const got = cli('get', '--store', 'cli.sqlite', '--id', '1');
    expect(got.status).toBe(0);
    expect(got.out).toContain('"total": 12345678901234567890');
  });

  it('installs the example plugin from its tarball with `plugins install`: it adds only the plugin and runs on the host', () => {
    // examples/plugin-hello is written as a stranger would write one: no build, optional peers
    // only. `plugins install` runs npm in the data directory; the plugin's import of
    // @session-checkpoint/cli/plugin resolves to this project's installed CLI (docs/plugins.md).
    const example = join(root, 'examples', 'plugin-hello');
    const packedPlugin = run(project, 'npm', ['pack', example, '--pack-destination', packDir, '--silent']);
    expect(packedPlugin.status, packedPlugin.stderr).toBe(0);
    const tarball = join(packDir, packedPlugin.stdout.trim().split('\n').pop());
    const install = bin('plugins', 'install', tarball);
    expect(install.status, install.stderr + install.stdout).toBe(0);
    expect(JSON.parse(install.stdout)).toMatchObject({ ok: true, result: { installed: [{ name: 'session-checkpoint-plugin-hello', type: 'user' }] } });
    const dataModules = join(project, '.xdg', 'data', 'session-checkpoint', 'node_modules');
    expect(readdirSync(dataModules).filter((name) => !name.startsWith('.'))).toEqual(['session-checkpoint-plugin-hello']);
    expect(cli('init', '--store', 'plugin.sqlite')).toMatchObject({ status: 0 });
    const hello = cli('hello', '--store', 'plugin.sqlite');
    expect(hello.status).toBe(0);
    expect(JSON.parse(hello.out)).toMatchObject({ ok: true, result: { greeting: 'Hello from session-checkpoint-plugin-hello', sessions: 0, checkpoints: 0 } });
  });
});

describe('installed globally (npm i -g of the tarballs), with the example plugin', () => {
  let prefix;
  let home;
  beforeAll(() => {
    prefix = installGlobally(['core', 'store-kysely', 'bundle', 'cli'].map((name) => packed.get(`@session-checkpoint/${name}`).tarball), root);
    home = mkdtempSync(join(tmpdir(), 'sc-pack-global-home-'));
  });
  afterAll(() => {
    for (const dir of [prefix, home]) if (dir) rmSync(dir, { recursive: true, force: true });
  });
  const global = (...args) => {
    const result = run(home, join(prefix, 'bin', 'session-checkpoint'), args, { ...cleanEnv(home), npm_config_offline: 'true' });
    expect(result.stderr).toBe('');
    return { status: result.status, json: JSON.parse(result.stdout) };
  };

  it('installs the plugin from its tarball path, and its command opens a SQLite store with the CLI\'s better-sqlite3', () => {
    // store-kysely sits beside the CLI in <prefix>/lib/node_modules, without better-sqlite3: the
    // plugin's BaseCommand must still open the store (src/plugin-host.ts, host fallback packages).
    const example = join(root, 'examples', 'plugin-hello');
    const packedPlugin = run(home, 'npm', ['pack', example, '--pack-destination', home, '--silent']);
    expect(packedPlugin.status, packedPlugin.stderr).toBe(0);
    const tarball = join(home, packedPlugin.stdout.trim().split('\n').pop());
    expect(global('plugins', 'install', tarball)).toMatchObject({ status: 0, json: { ok: true, result: { installed: [{ name: 'session-checkpoint-plugin-hello' }] } } });
    writeFiles(home, { 'state.json': '{"step": 1}' });
    expect(global('create', '--store', 'global.sqlite', '--session-id', 's-1', '--payload-file', 'state.json')).toMatchObject({ status: 0 });
    expect(global('hello', '--store', 'global.sqlite')).toEqual({
      status: 0,
      json: { ok: true, result: { greeting: 'Hello from session-checkpoint-plugin-hello', store: join(realpathSync(home), 'global.sqlite'), namespace: 'default', sessions: 1, checkpoints: 1 } },
    });
    expect(global('plugins')).toMatchObject({ status: 0, json: { ok: true, result: [{ name: 'session-checkpoint-plugin-hello', type: 'user' }] } });
  });

  it('inspects a LangGraph thread and an Agents session with neither those packages nor their frameworks installed', async () => {
    // The binary carries the framework-free readers of @session-checkpoint/langgraph/rows and
    // .../openai-agents/rows in its bundle: nothing of LangGraph, LangChain or the Agents SDK is
    // installed with it, and `threads` and `state` still read their rows.
    const installed = (dir) => (existsSync(dir) ? readdirSync(dir) : []);
    for (const dir of [join(prefix, 'lib', 'node_modules'), join(prefix, 'lib', 'node_modules', '@session-checkpoint', 'cli', 'node_modules')]) {
      expect(installed(dir).filter((name) => name === '@langchain' || name === '@openai')).toEqual([]);
      expect(installed(join(dir, '@session-checkpoint')).filter((name) => name === 'langgraph' || name === 'openai-agents')).toEqual([]);
    }
    // The rows are written here by the workspace's own saver and session.
    const { SessionCheckpointSaver } = await import('@session-checkpoint/langgraph');
    const { CheckpointSession } = await import('@session-checkpoint/openai-agents');
    const { emptyCheckpoint } = await import('@langchain/langgraph-checkpoint');
    const { openSqliteStore } = await import('@session-checkpoint/store-kysely');
    const store = await openSqliteStore(join(home, 'inspect.sqlite'));
    try {
      const saver = new SessionCheckpointSaver(store);
      const checkpoint = { ...emptyCheckpoint(), id: '1ef00000-0000-6000-8000-000000000001', channel_values: { messages: ['hello'] }, channel_versions: { messages: 1 } };
      await saver.put({ configurable: { thread_id: 'chat', checkpoint_ns: '' } }, checkpoint, { source: 'input', step: -1, parents: {} }, { messages: 1 });
      await new CheckpointSession(store, { sessionId: 'user-42' }).addItems([{ role: 'user', content: 'hi' }]);
    } finally {
      await store.close();
    }
    const threads = global('threads', '--store', 'inspect.sqlite');
    expect(threads).toMatchObject({ status: 0, json: { ok: true } });
    expect(threads.json.result.map((t) => [t.family, t.thread_id]).sort()).toEqual([['langgraph', 'chat'], ['openai-agents', 'user-42']]);
    expect(global('state', '--store', 'inspect.sqlite', '--thread', 'chat')).toMatchObject({ status: 0, json: { ok: true, result: { family: 'langgraph', checkpoint_id: '1ef00000-0000-6000-8000-000000000001', values: { messages: ['hello'] } } } });
    expect(global('state', '--store', 'inspect.sqlite', '--thread', 'user-42')).toMatchObject({ status: 0, json: { ok: true, result: { family: 'openai-agents', items: [{ role: 'user', content: 'hi' }] } } });
    // An official SqliteSaver file, read where it is by the readers of .../langgraph/official in the bundle.
    const { SqliteSaver } = await import('@langchain/langgraph-checkpoint-sqlite');
    const theirs = SqliteSaver.fromConnString(join(home, 'official.db'));
    const official = { ...emptyCheckpoint(), id: '1ef00000-0000-6000-8000-000000000002', channel_values: { messages: ['hi there'] }, channel_versions: { messages: 1 } };
    await theirs.put({ configurable: { thread_id: 'theirs', checkpoint_ns: '' } }, official, { source: 'input', step: -1, parents: {} }, { messages: 1 });
    theirs.db.close();
    expect(global('state', '--from', 'sqlite:official.db', '--thread', 'theirs')).toMatchObject({
      status: 0,
      json: { ok: true, result: { family: 'langgraph', source: 'SqliteSaver', verified: false, checkpoint_id: '1ef00000-0000-6000-8000-000000000002', values: { messages: ['hi there'] } } },
    });
  });

  const [nodeMajor, nodeMinor] = process.versions.node.split('.').map(Number);
  // ai@7 and @mastra/core@1 (which write the rows here) need Node 22 and 22.13: skipped on an older Node (CI's Node 24 pass runs it).
  it.skipIf(nodeMajor < 22 || (nodeMajor === 22 && nodeMinor < 13))('shows an AI SDK chat and a Mastra thread with neither ai nor Mastra installed', async () => {
    const installed = (dir) => (existsSync(dir) ? readdirSync(dir) : []);
    for (const dir of [join(prefix, 'lib', 'node_modules'), join(prefix, 'lib', 'node_modules', '@session-checkpoint', 'cli', 'node_modules')]) {
      expect(installed(dir).filter((name) => name === 'ai' || name === '@mastra' || name === '@ai-sdk')).toEqual([]);
      expect(installed(join(dir, '@session-checkpoint')).filter((name) => name === 'ai-sdk' || name === 'mastra')).toEqual([]);
    }
    // The rows are written here by the workspace's own chat store and Mastra domain.
    const { createChatStore } = await import('@session-checkpoint/ai-sdk');
    const { CheckpointMemoryStorage } = await import('@session-checkpoint/mastra');
    const { openSqliteStore } = await import('@session-checkpoint/store-kysely');
    const store = await openSqliteStore(join(home, 'frameworks.sqlite'));
    try {
      await createChatStore(store).saveChat({ chatId: 'chat-1', messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'hi' }] }] });
      const memory = new CheckpointMemoryStorage(store);
      await memory.saveThread({ thread: { id: 'thread-1', resourceId: 'user-1', title: 't', createdAt: new Date(), updatedAt: new Date(), metadata: {} } });
      await memory.saveMessages({ messages: [{ id: 'm1', threadId: 'thread-1', resourceId: 'user-1', role: 'user', type: 'v2', createdAt: new Date(), content: { format: 2, parts: [{ type: 'text', text: 'remember me' }] } }] });
    } finally {
      await store.close();
    }
    const threads = global('threads', '--store', 'frameworks.sqlite');
    expect(threads.json.result.map((t) => [t.family, t.thread_id]).sort()).toEqual([['ai-sdk', 'chat-1'], ['mastra', 'thread-1']]);
    expect(global('state', '--store', 'frameworks.sqlite', '--thread', 'chat-1')).toMatchObject({ status: 0, json: { ok: true, result: { family: 'ai-sdk', save: 1, messages: [{ id: 'u1' }] } } });
    expect(global('state', '--store', 'frameworks.sqlite', '--thread', 'thread-1', '--path', '/messages/0/content/parts/0/text')).toMatchObject({ status: 0, json: { ok: true, result: { family: 'mastra', value: 'remember me' } } });
  });

  it('serves the inspect viewer from the installed package: the page, its bundled script and styles, the API, nothing from elsewhere', async () => {
    // Uses the store of the test above. The page's libraries (preact, htm, uPlot) are bundled into
    // the tarball's dist/inspect-ui at build time: nothing is fetched at run time.
    const child = spawn(join(prefix, 'bin', 'session-checkpoint'), ['inspect', '--store', 'inspect.sqlite', '--no-open'], { cwd: home, env: { ...cleanEnv(home), npm_config_offline: 'true' }, stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
    let out = '';
    const url = await new Promise((resolve, reject) => {
      child.stdout.on('data', (chunk) => {
        out += chunk;
        try {
          resolve(JSON.parse(out).result.url);
        } catch {
          // not a whole document yet
        }
      });
      exited.then((code) => reject(new Error(`inspect exited with ${code}: ${out}`)));
    });
    try {
      const { port, searchParams } = new URL(url);
      const get = (path) => fetch(`http://127.0.0.1:${port}${path}`, { headers: { 'X-Session-Checkpoint-Token': searchParams.get('token') } });
      const page = await get('/');
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).not.toMatch(/https?:\/\//);
      for (const asset of ['/assets/inspect.js', '/assets/inspect.css', '/assets/uPlot.min.css']) expect((await get(asset)).status, asset).toBe(200);
      expect(await (await get('/assets/inspect.js')).text()).not.toMatch(/\bfrom\s*["'](?:preact|htm|uplot)/);
      const threads = await (await get('/api/threads')).json();
      expect(threads.threads.map((t) => t.thread_id).sort()).toEqual(['chat', 'user-42']);
      expect((await fetch(`http://127.0.0.1:${port}/api/threads`)).status).toBe(403);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  });
});
