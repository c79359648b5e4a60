// "What takes the space": the `stats` command's answer as a sortable table, one row per thread or
// session (namespace, id, rows, bytes, oldest and newest write, pinned). A click on a column
// heading sorts by it; a second click reverses the order. Largest first to begin with.
import { getJson } from './api.js';
import { html, useEffect, useMemo, useState } from './preact.js';

const COLUMNS = [
  { key: 'namespace', label: 'namespace', numeric: false },
  { key: 'session_id', label: 'thread / session', numeric: false },
  { key: 'rows', label: 'rows', numeric: true },
  { key: 'bytes', label: 'bytes', numeric: true },
  { key: 'oldest', label: 'oldest write', numeric: false },
  { key: 'newest', label: 'newest write', numeric: false },
  { key: 'pinned', label: 'pinned', numeric: false },
];

function size(bytes) {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : bytes >= 1024 ? `${(bytes / 1024).toFixed(1)} kB` : `${bytes} B`;
}

/** Rows of the table: every session of every namespace, with its namespace. */
export function statsRows(stats) {
  return stats.namespaces.flatMap((ns) => ns.sessions.map((s) => ({ namespace: ns.namespace, ...s })));
}

/** `rows` sorted by `key`, descending or ascending; ties by namespace and id, so the order is stable. */
export function sortRows(rows, key, descending) {
  const sign = descending ? -1 : 1;
  const compare = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
  return [...rows].sort((a, b) => sign * compare(a[key], b[key]) || compare(a.namespace, b.namespace) || compare(a.session_id, b.session_id));
}

function Storage({ storage }) {
  if (!storage) return null;
  if (storage.kind === 'sqlite') {
    return html`<p class="storage" data-storage="sqlite">SQLite file ${size(storage.file_bytes)}, of which ${size(storage.reclaimable_bytes)} free (compact gives it back) · ${storage.journal_mode}</p>`;
  }
  return html`<p class="storage" data-storage="postgres">PostgreSQL schema <code>${storage.schema}</code>: ${storage.relations.map((r) => `${r.name} ${size(r.total_bytes)} (${r.dead_tuples} dead tuples)`).join(' · ')}</p>`;
}

/** The panel: reads /api/stats once, then sorts in the page. */
export function StatsPanel({ onClose }) {
  const [stats, setStats] = useState(null);
  const [error, setError] = useState(null);
  const [sort, setSort] = useState({ key: 'bytes', descending: true });
  useEffect(() => {
    getJson('/api/stats').then(setStats, setError);
  }, []);
  const rows = useMemo(() => (stats ? sortRows(statsRows(stats), sort.key, sort.descending) : []), [stats, sort.key, sort.descending]);
  const by = (column) => setSort((old) => (old.key === column.key ? { key: column.key, descending: !old.descending } : { key: column.key, descending: column.numeric }));
  return html`<section class="stats-panel" aria-label="What takes the space">
    <div class="stats-head"><h2>What takes the space</h2><button type="button" class="close-stats" onClick=${onClose}>close</button></div>
    ${error ? html`<div class="error" role="alert"><strong>Could not read the sizes</strong><div>${error.type ? `${error.type}: ` : ''}${error.message}</div></div>` : null}
    ${stats === null && !error ? html`<p class="loading">reading…</p>` : null}
    ${stats
      ? html`<p class="totals">${stats.totals.sessions} threads and sessions in ${stats.totals.namespaces} namespaces · ${stats.totals.rows} rows · ${size(stats.totals.bytes)} of payloads</p>
          <${Storage} storage=${stats.storage} />
          <table class="stats" data-sort-key=${sort.key} data-sort-order=${sort.descending ? 'descending' : 'ascending'}>
            <thead><tr>${COLUMNS.map((c) => html`<th key=${c.key} scope="col" data-column=${c.key} aria-sort=${sort.key === c.key ? (sort.descending ? 'descending' : 'ascending') : 'none'}><button type="button" onClick=${() => by(c)}>${c.label}${sort.key === c.key ? (sort.descending ? ' ▼' : ' ▲') : ''}</button></th>`)}</tr></thead>
            <tbody>${rows.map((r) => html`<tr key=${`${r.namespace}\u0000${r.session_id}`} data-namespace=${r.namespace} data-session-id=${r.session_id}>
              <td>${r.namespace}</td><td><code>${r.session_id}</code></td><td class="num">${r.rows}</td><td class="num" data-bytes=${r.bytes}>${size(r.bytes)}</td><td>${r.oldest}</td><td>${r.newest}</td><td>${r.pinned ? 'pinned' : ''}</td>
            </tr>`)}</tbody>
          </table>`
      : null}
  </section>`;
}
