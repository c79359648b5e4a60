// The timeline of a thread, latest first, with forks drawn from parent links. The main line is the
// original one: from the oldest step, at each fork the child made first continues it; a step off it
// (a fork made by time travel or updateState, and everything after) is indented under a branch
// marker, and a step with more than one child is marked as a fork point. The latest step is marked
// wherever it is. Why the original: the drawing of a line never changes when someone writes to
// another line, and it is known from the loaded page alone (parents are older than children).
import { html, useMemo } from './preact.js';

/** Orders ids as they were made: numerically for positions and row ids, else as text (LangGraph ids sort by time). */
function byAge(a, b) {
  return /^\d+$/.test(a) && /^\d+$/.test(b) ? Number(a) - Number(b) : a < b ? -1 : a > b ? 1 : 0;
}

/** Lanes of the loaded entries: which are on the main line, which on the latest step's line, and the children of each. */
export function forkLayout(entries) {
  const children = new Map();
  for (const entry of entries) if (entry.parent !== null) children.set(entry.parent, [...(children.get(entry.parent) ?? []), entry.id]);
  for (const list of children.values()) list.sort(byAge);
  const byId = new Map(entries.map((entry) => [entry.id, entry]));
  const latestLine = new Set();
  for (let at = entries[0]; at !== undefined && !latestLine.has(at.id); at = at.parent === null ? undefined : byId.get(at.parent)) latestLine.add(at.id);
  // Oldest first, so a parent is decided before its children; a step whose parent is not loaded
  // yet stays on the main line until an earlier page says otherwise.
  const branch = new Set();
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i];
    if (entry.parent === null || !byId.has(entry.parent)) continue;
    if (branch.has(entry.parent) || children.get(entry.parent)[0] !== entry.id) branch.add(entry.id);
  }
  return { children, latestLine, onTrunk: (entry) => !branch.has(entry.id) };
}

function shortId(id) {
  return id.length > 14 ? `…${id.slice(-12)}` : id;
}

function size(bytes) {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : bytes >= 1024 ? `${(bytes / 1024).toFixed(1)} kB` : `${bytes} B`;
}

/** The first message a step added, as "role: text", and how many more. */
function Preview({ story }) {
  const added = story?.messages_added ?? [];
  if (added.length === 0) return null;
  const [first] = added;
  return html`<span class="preview" data-preview-role=${first.role} title=${added.map((m) => `${m.role}: ${m.text}`).join('\n')}><span class="role">${first.role}</span> ${first.text}${added.length > 1 ? html` <span class="more">+${added.length - 1}</span>` : null}</span>`;
}

/** One step. */
function Entry({ entry, index, layout, selected, compare, onSelect }) {
  const branch = !layout.onTrunk(entry, index);
  const forks = layout.children.get(entry.id)?.length ?? 0;
  const story = entry.story;
  // Waiting: it holds interrupt writes and nothing was made from it (among the loaded steps, which hold every newer one).
  const interrupt = story?.interrupt ? (forks === 0 ? 'waiting' : 'resumed') : null;
  const classes = ['entry', branch ? 'branch' : 'trunk', entry.verified ? 'verified' : entry.unverified ? 'unverified' : 'failed', selected ? 'selected' : '', compare ? 'compare' : '', interrupt === 'waiting' ? 'waiting' : ''].join(' ');
  const step = story?.step ?? entry.step;
  return html`<li class=${classes} data-checkpoint-id=${entry.id} data-parent-id=${entry.parent ?? ''} data-verified=${entry.verified ? 'true' : entry.unverified ? 'unverified' : 'false'}
      data-step=${step ?? ''} data-latest-line=${layout.latestLine.has(entry.id) ? 'true' : 'false'} data-main-line=${branch ? 'false' : 'true'}
      title=${entry.error ?? entry.changeError ?? entry.id} onClick=${() => onSelect(entry.id)}>
    <span class="lane">${branch ? '↳' : '●'}</span>
    <span class="step">${step ?? ''}</span>
    <span class="label">${entry.label ?? ''}</span>
    <span class="what">${story && story.nodes.length > 0 ? html`<span class="nodes" data-nodes=${story.nodes.join(',')}>${story.nodes.join(', ')}</span>` : null}<code class="id">${shortId(entry.id)}</code></span>
    ${index === 0 ? html`<span class="latest" title="the latest step: where the thread continues">latest</span>` : html`<span></span>`}
    ${forks > 1 ? html`<span class="fork" title="steps made from this one">fork ×${forks}</span>` : html`<span></span>`}
    ${entry.changes && entry.changes.length > 0 ? html`<span class="changes" title=${entry.changes.map((c) => `${c.op} ${c.path}`).join('\n')}>${entry.changes.length} change${entry.changes.length > 1 ? 's' : ''}</span>` : null}
    ${entry.changeError ? html`<span class="change-error" title=${entry.changeError}>change unknown</span>` : null}
    <span class="bytes">${size(entry.bytes)}</span>
    ${entry.seal ? html`<span class=${`badge seal ${entry.seal.sealed ? 'ok' : 'bad'}`} data-sealed=${entry.seal.sealed ? 'true' : 'false'} title=${entry.seal.sealed ? 'sealed and encrypted' : 'not sealed'}>${entry.seal.sealed ? 'sealed' : 'plaintext'}</span>` : null}
    ${entry.unverified
      ? html`<span class="badge unverified" title="a row of an official saver's store: it carries no hash to check">unverified</span>`
      : html`<span class=${`badge ${entry.verified ? 'ok' : 'bad'}`}>${entry.verified ? 'verified' : 'failed'}</span>`}
    ${interrupt ? html`<span class=${`interrupt ${interrupt}`} data-interrupt=${interrupt} title=${(story.interrupt.values ?? []).join('\n')}>${interrupt === 'waiting' ? 'waiting on interrupt' : 'interrupted, resumed'}${story.interrupt.values?.length ? `: ${story.interrupt.values[0]}` : ''}</span>` : null}
    <${Preview} story=${story} />
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
