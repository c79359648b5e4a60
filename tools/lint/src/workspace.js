import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** Workspace folders that hold packages, relative to the root. */
const PACKAGE_DIRS = ['packages', 'tools', 'examples'];

/** Finds the workspace root: the nearest folder above `start` with an nx.json. */
export function findRoot(start) {
  let dir = resolve(start);
  while (!existsSync(join(dir, 'nx.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no nx.json above ${start}`);
    dir = parent;
  }
  return dir;
}

/** Reads every workspace package once: name -> { dir, tags, name }. */
export function readProjects(root) {
  const projects = new Map();
  for (const group of PACKAGE_DIRS) {
    const base = join(root, group);
    if (!existsSync(base)) continue;
    for (const entry of readdirSync(base, { withFileTypes: true })) {
      const file = join(base, entry.name, 'package.json');
      if (!entry.isDirectory() || !existsSync(file)) continue;
      const pkg = JSON.parse(readFileSync(file, 'utf8'));
      projects.set(pkg.name, { name: pkg.name, dir: join(base, entry.name), tags: pkg.nx?.tags ?? [] });
    }
  }
  return projects;
}

/** The project whose folder contains `file`, or undefined. */
export function projectOf(projects, file) {
  const abs = resolve(file);
  for (const project of projects.values()) if (abs.startsWith(project.dir + '/')) return project;
  return undefined;
}
