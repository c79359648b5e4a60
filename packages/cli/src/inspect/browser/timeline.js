// The timeline of a thread, latest first, with forks drawn from parent links: the line of the
// latest step is the trunk; a step off it is indented under a branch marker, and a step with
// more than one child is marked as a fork point.
import { html, useMemo } from './preact.js';

/** Lanes of the loaded entries: which are on the latest step's line, and how many children each has. */
export function forkLayout(entries) {
  const children = new Map();
  for (const entry of entries) if (entry.parent !== null) children.set(entry.parent, (children.get(entry.parent) ?? 0) + 1);
  const byId = new Map(entries.map((entry) => [entry.id, entry]));
  const trunk = new Set();
  for (let at = entries[0]; at !== undefined && !trunk.has(at.id); at = at.parent === null ? undefined : byId.get(at.parent)) trunk.add(at.id);
  // Steps older than the loaded part of the trunk are on it until proved otherwise.
  const oldestTrunk = [...trunk].pop();
  const lastTrunkIndex = entries.findIndex((entry) => entry.id === oldestTrunk);
  return { children, onTrunk: (entry, index) => trunk.has(entry.id) || index > lastTrunkIndex };
}

function shortId(id) {
  return id.length > 14 ? `…${id.slice(-12)}` : id;
}

function size(bytes) {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : bytes >= 1024 ? `${(bytes / 1024).toFixed(1)} kB` : `${bytes} B`;
}

/** One step. */
function Entry({ entry, index, layout, selected, compare, onSelect }) {
  const branch = !layout.onTrunk(entry, index);
  const forks = layout.children.get(entry.id) ?? 0;
  const classes = ['entry', branch ? 'branch' : 'trunk', entry.verified ? 'verified' : 'failed', selected ? 'selected' : '', compare ? 'compare' : ''].join(' ');
  return html`<li class=${classes} data-checkpoint-id=${entry.id} data-parent-id=${entry.parent ?? ''} data-verified=${entry.verified ? 'true' : 'false'}
      title=${entry.error ?? entry.changeError ?? entry.id} onClick=${() => onSelect(entry.id)}>
    <span class="lane">${branch ? '↳' : '●'}</span>
    <span class="step">${entry.step ?? ''}</span>
    <span class="label">${entry.label ?? ''}</span>
    <code class="id">${shortId(entry.id)}</code>
    ${forks > 1 ? html`<span class="fork" title="steps made from this one">fork ×${forks}</span>` : null}
    ${entry.changes && entry.changes.length > 0 ? html`<span class="changes" title=${entry.changes.map((c) => `${c.op} ${c.path}`).join('\n')}>${entry.changes.length} change${entry.changes.length > 1 ? 's' : ''}</span>` : null}
    ${entry.changeError ? html`<span class="change-error" title=${entry.changeError}>change unknown</span>` : null}
    <span class="bytes">${size(entry.bytes)}</span>
    ${entry.seal ? html`<span class=${`badge seal ${entry.seal.sealed ? 'ok' : 'bad'}`} data-sealed=${entry.seal.sealed ? 'true' : 'false'} title=${entry.seal.sealed ? 'sealed and encrypted' : 'not sealed'}>${entry.seal.sealed ? 'sealed' : 'plaintext'}</span>` : null}
    <span class=${`badge ${entry.verified ? 'ok' : 'bad'}`}>${entry.verified ? 'verified' : 'failed'}</span>
  </li>`;
}

/** The list, with "load earlier" at its end while earlier steps exist. */
export function Timeline({ entries, selected, compare, onSelect, next, loading, onLoadEarlier, total, filter }) {
  const layout = useMemo(() => forkLayout(entries), [entries]);
  return html`<div class="timeline" data-loading=${loading ? 'true' : 'false'} data-filter=${filter ?? ''}>
    <div class="timeline-head">${entries.length}${total !== undefined ? ` of ${total}` : ''} steps, latest first</div>
    <ol class="entries">${entries.map((entry, index) => html`<${Entry} key=${entry.id} entry=${entry} index=${index} layout=${layout} selected=${entry.id === selected} compare=${entry.id === compare} onSelect=${onSelect} />`)}</ol>
    ${next !== null ? html`<button class="load-earlier" disabled=${loading} onClick=${onLoadEarlier}>${loading ? 'loading…' : 'load earlier'}</button>` : html`<div class="timeline-end">first step reached</div>`}
  </div>`;
}
