import { builtinModules } from 'node:module';
import { ADAPTER_FORBIDDEN_NAMES, FORBIDDEN_PACKAGES, LAYER_RULES } from './layers.js';
import { findRoot, projectOf, readProjects } from './workspace.js';

/** Tests, their helpers and measurement scripts may use what the package's devDependencies hold. */
const TEST_FILE = /\.test\.(ts|js)$|\/(test-support|bench)\/|vitest\.config\.(ts|js)$/;
const BUILTINS = new Set(builtinModules);

/** `@scope/name/sub` -> `@scope/name`; `name/sub` -> `name`. */
function packageName(source) {
  const parts = source.split('/');
  return source.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

let cache;
function projects(cwd) {
  cache ??= readProjects(findRoot(cwd));
  return cache;
}

/**
 * ESLint rule `session-checkpoint/layers`: fails an import that points upward in the layer order
 * (see LAYER_RULES), a runtime dependency in core, a storage driver in the CLI, or an adapter that
 * imports canonicalising/hashing/verifying functions.
 */
export const boundariesRule = {
  meta: {
    type: 'problem',
    docs: { description: 'Keep package dependencies pointing downward (Nx project tags).' },
    schema: [],
    messages: {
      upward: "'{{from}}' ({{fromTag}}) must not import '{{to}}' ({{toTag}}): dependencies point downward only.",
      coreDependency: "core has no runtime dependencies: '{{to}}' may not be imported outside tests.",
      forbiddenPackage: "'{{to}}' may not be imported by {{fromTag}}: go through the adapter package.",
      adapterVerifies: "adapters never canonicalise, hash or verify: '{{name}}' belongs to the store facade.",
    },
  },
  create(context) {
    const all = projects(context.cwd);
    const self = projectOf(all, context.filename);
    if (!self) return {};
    const fromTag = self.tags.find((t) => t.startsWith('layer:'));
    const rules = LAYER_RULES[fromTag];
    if (!rules) return {};
    const isTest = TEST_FILE.test(context.filename);
    const allowed = new Set([...rules.runtime, ...(isTest ? rules.test : [])]);

    function check(node, source, importedNames) {
      if (typeof source !== 'string' || source.startsWith('.') || source.startsWith('node:') || BUILTINS.has(source)) return;
      const to = packageName(source);
      if (to === self.name) return;
      const target = all.get(to);
      if (target) {
        const toTag = target.tags.find((t) => t.startsWith('layer:')) ?? '(untagged)';
        if (!allowed.has('*') && !allowed.has(toTag)) {
          context.report({ node, messageId: 'upward', data: { from: self.name, fromTag, to, toTag } });
        }
        if (fromTag === 'layer:adapter' && to === '@session-checkpoint/core') {
          for (const name of importedNames) {
            if (ADAPTER_FORBIDDEN_NAMES.includes(name)) context.report({ node, messageId: 'adapterVerifies', data: { name } });
          }
        }
        return;
      }
      if (fromTag === 'layer:core' && !isTest) {
        context.report({ node, messageId: 'coreDependency', data: { to } });
      }
      if ((FORBIDDEN_PACKAGES[fromTag] ?? []).includes(to) && !isTest) {
        context.report({ node, messageId: 'forbiddenPackage', data: { to, fromTag } });
      }
    }

    const names = (specifiers = []) =>
      specifiers.map((s) => (s.imported ? (s.imported.name ?? s.imported.value) : s.local?.name)).filter(Boolean);

    return {
      ImportDeclaration: (node) => check(node, node.source.value, names(node.specifiers)),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value, names(node.specifiers)),
      ExportAllDeclaration: (node) => check(node, node.source.value, ['*']),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value, []),
    };
  },
};
