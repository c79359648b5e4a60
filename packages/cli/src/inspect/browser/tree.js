// The state as a collapsible tree. Children are rendered only once a node is opened, so a state
// with thousands of messages costs one line until someone looks inside.
import { html, useState } from './preact.js';

function escapePointer(key) {
  return String(key).replace(/~/g, '~0').replace(/\//g, '~1');
}

function preview(value) {
  if (Array.isArray(value)) return `[${value.length}]`;
  return `{${Object.keys(value).length}}`;
}

function Leaf({ name, value, path }) {
  const text = typeof value === 'string' ? JSON.stringify(value) : String(value);
  return html`<div class="leaf" data-path=${path}><span class="key">${name}</span><span class=${`value t-${value === null ? 'null' : typeof value}`}>${text.length > 400 ? `${text.slice(0, 400)}… (${text.length} chars)` : text}</span></div>`;
}

/** One node: a leaf, or a `<details>` holding its children. */
export function TreeNode({ name, value, path, depth = 0, openDepth = 1 }) {
  const [open, setOpen] = useState(depth < openDepth);
  if (value === null || typeof value !== 'object') return html`<${Leaf} name=${name} value=${value} path=${path} />`;
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v]) : Object.entries(value);
  return html`<details class="node" data-path=${path} open=${open} onToggle=${(event) => setOpen(event.currentTarget.open)}>
    <summary><span class="key">${name}</span><span class="count">${preview(value)}</span></summary>
    ${open ? entries.map(([key, child]) => html`<${TreeNode} key=${key} name=${key} value=${child} path=${`${path}/${escapePointer(key)}`} depth=${depth + 1} openDepth=${openDepth} />`) : null}
  </details>`;
}

/** A whole value as a tree, its top level open. */
export function Tree({ value, label = 'state' }) {
  return html`<div class="tree"><${TreeNode} name=${label} value=${value} path="" openDepth=${2} /></div>`;
}
