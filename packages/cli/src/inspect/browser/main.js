// The inspector's page: threads, a timeline, the state at a step, its diff and writes, a size
// chart and the debug-bundle export. preact + htm, no build step of its own; scripts/bundle.mjs
// inlines the libraries into one module that the server ships (nothing from a CDN).
import { getJson, query, threadRefs, view } from './api.js';
import { SizeChart } from './chart.js';
import { isMessageList, messageOf, Messages } from './messages.js';
import { html, render, useEffect, useMemo, useRef, useState } from './preact.js';
import { StatsPanel } from './stats.js';
import { Timeline } from './timeline.js';
import { Tree } from './tree.js';

/** Timeline page size: 100, or `#limit=N` in the address (1 to 500). */
const PAGE = (() => {
  const n = Number(new URLSearchParams(location.hash.slice(1)).get('limit'));
  return Number.isInteger(n) && n >= 1 && n <= 500 ? n : 100;
})();

function refKey(ref) {
  return ref ? `${ref.family}\u0000${ref.namespace}\u0000${ref.thread}\u0000${ref.checkpointNs ?? ''}` : '';
}

function readHash() {
  const params = new URLSearchParams(location.hash.slice(1));
  if (!params.get('thread')) return {};
  const ref = { family: params.get('family'), namespace: params.get('namespace'), thread: params.get('thread') };
  if (params.has('checkpoint_ns')) ref.checkpointNs = params.get('checkpoint_ns');
  return { ref, checkpoint: params.get('checkpoint') ?? undefined };
}

function writeHash(ref, checkpoint) {
  const params = new URLSearchParams(query(ref, { checkpoint, limit: PAGE === 100 ? undefined : PAGE }));
  history.replaceState(null, '', `#${params.toString()}`);
}

function ErrorBox({ error, what }) {
  const failed = /Integrity|verif|tamper|sha256|hash/i.test(`${error.type} ${error.message}`);
  return html`<div class=${`error ${failed ? 'verify-failed' : ''}`} role="alert" data-error-type=${error.type ?? ''}>
    <strong>${failed ? `${what[0].toUpperCase()}${what.slice(1)} failed verification` : `Could not read ${what}`}</strong><div>${error.type ? `${error.type}: ` : ''}${error.message}</div>
  </div>`;
}

function Threads({ threads, current, onPick }) {
  return html`<ul class="threads">${threads.map(
    (t) => html`<li key=${refKey(t)} class=${`thread ${refKey(t) === refKey(current) ? 'selected' : ''}`} data-thread-id=${t.thread} data-family=${t.family} onClick=${() => onPick(t)}>
      <span class=${`family f-${t.family}`}>${t.family}</span>
      <span class="thread-id">${t.thread}</span>
      ${t.checkpointNs ? html`<span class="ns">ns ${t.checkpointNs}</span>` : null}
      <span class="meta">${t.count} · ${t.namespace}</span>
    </li>`,
  )}</ul>`;
}

/** An operation's value: a message as role and text (its raw form one click away), anything else as JSON. */
function OpValue({ value }) {
  const raw = JSON.stringify(value, null, 2).slice(0, 4000);
  const message = messageOf(value);
  if (message === null) return html`<pre class="op-value">${raw}</pre>`;
  return html`<div class=${`op-message role-${message.role}`}><span class="role">${message.role}</span> <span class="text">${message.text.slice(0, 4000)}</span>
    <details class="op-raw"><summary>raw</summary><pre class="op-value">${raw}</pre></details></div>`;
}

function DiffView({ patch }) {
  if (patch.length === 0) return html`<p class="empty" data-diff-empty>No difference.</p>`;
  return html`<ol class="patch">${patch.map(
    (op, i) => html`<li key=${i} class=${`op op-${op.op}`} data-op=${op.op} data-path=${op.path}>
      <span class="op-name">${op.op}</span> <code class="op-path">${op.path}</code>${op.from !== undefined ? html` from <code>${op.from}</code>` : null}
      ${'value' in op ? html`<${OpValue} value=${op.value} />` : null}
    </li>`,
  )}</ol>`;
}

function WritesView({ writes }) {
  const list = Array.isArray(writes) ? writes : null;
  return html`<div class="writes">
    ${list && list.length === 0 ? html`<p class="empty">No writes recorded for this step.</p>` : null}
    ${list
      ? html`<ol>${list.map((w, i) => html`<li key=${i} class="write" data-channel=${w?.channel ?? ''}>${w?.channel !== undefined ? html`<mark class="channel">${w.channel}</mark>` : null}${w?.task_id ?? w?.taskId ? html` <code class="task">${w.task_id ?? w.taskId}</code>` : null}<${Tree} value=${w} label=${`write ${i}`} /></li>`)}</ol>`
      : html`<${Tree} value=${writes} label="writes" />`}
  </div>`;
}

/** The message lists of a state (LangGraph channels holding messages, a session's items), by JSON pointer. */
function messageLists(state) {
  if (state.family === 'openai-agents') return isMessageList(state.items) ? [['/items', 'items', state.items]] : [];
  if (state.family !== 'langgraph') return [];
  return Object.entries(state.values ?? {}).filter(([, value]) => isMessageList(value)).map(([name, value]) => [`/values/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`, name, value]);
}

/** What the selected step changed (the patch from its parent), shown above its state: pick a step, read both. */
function StepChange({ change, selected }) {
  if (change === null || change.for !== selected) return html`<p class="loading">reading what changed…</p>`;
  if (change.error) return html`<section class="step-change" data-change-for=${selected}><${ErrorBox} error=${change.error} what="what this step changed" /></section>`;
  return html`<section class="step-change" data-change-for=${selected}>
    <h3>Changed at this step${change.value.note ? '' : ` (${change.value.patch.length})`}</h3>
    ${change.value.note ? html`<p class="empty">${change.value.note}</p>` : html`<${DiffView} patch=${change.value.patch} />`}
    ${change.value.internal_hidden > 0 ? html`<p class="internal-note">${change.value.internal_hidden} change${change.value.internal_hidden > 1 ? 's' : ''} to LangGraph's internal channels hidden</p>` : null}
  </section>`;
}

function StateView({ value, selected }) {
  const lists = messageLists(value);
  return html`<div class="state-view" data-state-for=${selected}>
    ${lists.map(([path, name, list]) => html`<${Messages} key=${path} list=${list} path=${path} label=${name} />`)}
    ${value.internal_hidden ? html`<p class="internal-note" data-internal-hidden=${value.internal_hidden.join(',')}>LangGraph's internal channels hidden: ${value.internal_hidden.join(', ')}</p>` : null}
    <h3 class="raw-head">${lists.length > 0 ? 'The whole state (raw)' : 'The state'}</h3>
    <${Tree} value=${value} />
  </div>`;
}

function Detail({ ref, entries, selected, compare, setCompare, tab, setTab, onFailed, internal, setInternal }) {
  const [state, setState] = useState(null);
  const [other, setOther] = useState(null);
  const [change, setChange] = useState(null);
  const entry = entries.find((e) => e.id === selected);
  const base = compare === 'parent' ? entry?.parent ?? null : compare;
  const flag = internal ? '1' : undefined;
  useEffect(() => {
    if (!selected) return;
    setState(null);
    getJson(`/api/state?${query(ref, { checkpoint: selected, internal: flag })}`).then(
      (value) => setState({ value }),
      (error) => {
        setState({ error });
        onFailed(selected);
      },
    );
  }, [refKey(ref), selected, internal]);
  const parent = entry?.parent ?? null;
  useEffect(() => {
    if (!selected || !entry) return;
    setChange(null);
    const work = parent === null ? Promise.resolve({ note: 'This is the first step: everything in it is new.' }) : getJson(`/api/diff?${query(ref, { from: parent, to: selected, internal: flag })}`);
    work.then((value) => setChange({ for: selected, value }), (error) => setChange({ for: selected, error }));
  }, [refKey(ref), selected, parent, internal, entry !== undefined]);
  useEffect(() => {
    if (!selected || tab === 'state') return;
    setOther(null);
    const work =
      tab === 'diff'
        ? base === null
          ? Promise.resolve({ note: 'This is the first step: it has no parent to compare with.' })
          : getJson(`/api/diff?${query(ref, { from: base, to: selected, internal: flag })}`)
        : getJson(`/api/writes?${query(ref, { checkpoint: selected })}`);
    work.then((value) => setOther({ tab, value }), (error) => setOther({ tab, error }));
  }, [refKey(ref), selected, tab, base, internal]);
  if (!selected) return html`<section class="detail"><p class="empty">Pick a step on the timeline.</p></section>`;
  const exportHref = `/api/bundle?${query(ref, { checkpoint: selected })}`;
  return html`<section class="detail" data-selected=${selected}>
    <div class="detail-head">
      <div class="tabs" role="tablist">
        ${['state', 'diff', 'writes'].map((name) => html`<button key=${name} role="tab" data-tab=${name} aria-selected=${tab === name} class=${tab === name ? 'active' : ''} onClick=${() => setTab(name)}>${name}</button>`)}
      </div>
      <label class="compare-to">diff against
        <select data-compare onChange=${(event) => setCompare(event.currentTarget.value)} value=${compare}>
          <option value="parent">its parent</option>
          ${entries.filter((e) => e.id !== selected).map((e) => html`<option key=${e.id} value=${e.id}>${e.step ?? ''} ${e.label ?? ''} ${e.id}</option>`)}
        </select>
      </label>
      <a class="export" id="export-bundle" href=${exportHref} download>export redacted bundle</a>
      ${ref.family === 'langgraph' ? html`<label class="internal-toggle"><input type="checkbox" data-internal-toggle checked=${internal} onChange=${(event) => setInternal(event.currentTarget.checked)} /> LangGraph internals</label>` : null}
    </div>
    <div class="selected-id">step <code>${selected}</code>${entry && entry.unverified ? html` <span class="badge unverified">unverified: an official saver's row has no hash</span>` : entry && !entry.verified ? html` <span class="badge bad">failed verification</span>` : null}</div>
    ${tab === 'state'
      ? state === null
        ? html`<p class="loading">reading…</p>`
        : state.error
          ? html`<${StepChange} change=${change} selected=${selected} /><${ErrorBox} error=${state.error} what="this step" />`
          : html`<${StepChange} change=${change} selected=${selected} /><${StateView} value=${state.value} selected=${selected} />`
      : other === null || other.tab !== tab
        ? html`<p class="loading">reading…</p>`
        : other.error
          ? html`<${ErrorBox} error=${other.error} what=${tab === 'diff' ? 'the diff' : 'the writes'} />`
          : tab === 'diff'
            ? other.value.note
              ? html`<p class="empty">${other.value.note}</p>`
              : html`<div class="diff-view" data-diff-from=${base} data-diff-to=${selected}><${DiffView} patch=${other.value.patch} />${other.value.internal_hidden > 0 ? html`<p class="internal-note">${other.value.internal_hidden} change${other.value.internal_hidden > 1 ? 's' : ''} to LangGraph's internal channels hidden</p>` : null}</div>`
            : html`<${WritesView} writes=${other.value.writes} />`}
  </section>`;
}

function App() {
  const initial = useMemo(readHash, []);
  const [threads, setThreads] = useState(null);
  const [threadsError, setThreadsError] = useState(null);
  const [ref, setRef] = useState(initial.ref ?? null);
  const [entries, setEntries] = useState([]);
  const [next, setNext] = useState(null);
  const [total, setTotal] = useState(undefined);
  const [loading, setLoading] = useState(false);
  const [timelineError, setTimelineError] = useState(null);
  const [selected, setSelected] = useState(initial.checkpoint);
  const [compare, setCompare] = useState('parent');
  const [tab, setTab] = useState('state');
  const [filterText, setFilterText] = useState('');
  const [filter, setFilter] = useState('');
  const [failedReads, setFailedReads] = useState(new Set());
  const [showStats, setShowStats] = useState(false);
  const [internal, setInternal] = useState(false);

  useEffect(() => {
    getJson('/api/threads').then(
      (body) => {
        const refs = threadRefs(body.threads);
        setThreads(refs);
        if (!initial.ref && refs.length > 0) setRef(refs[0]);
      },
      setThreadsError,
    );
  }, []);

  // Each timeline request takes a number; an answer that is not to the newest request is dropped.
  // Without it a slow answer for the thread shown before (the first thread, picked on load, or a
  // filter since changed) could land after the newer one and replace its entries.
  const timelineRequest = useRef(0);
  const loadPage = (before, replace) => {
    setLoading(true);
    const mine = ++timelineRequest.current;
    const current = () => mine === timelineRequest.current;
    return getJson(`/api/timeline?${query(ref, { cursor: before, limit: PAGE, changed: filter })}`).then(
      (body) => {
        if (!current()) return undefined;
        const page = { entries: body.entries.map(view), next: body.next_cursor };
        setEntries((old) => (replace ? page.entries : [...old, ...page.entries]));
        setNext(page.next);
        setTotal(body.total);
        setTimelineError(null);
        setLoading(false);
        // The story (nodes, messages added, interrupts) after the page is drawn: it reads states.
        if (!filter) {
          getJson(`/api/story?${query(ref, { cursor: before, limit: PAGE })}`).then(
            // Matched by checkpoint id, so a story that arrives late for another thread changes nothing.
            (story) => setEntries((old) => old.map((e) => (story.stories[e.id] ? { ...e, story: story.stories[e.id] } : e))),
            () => undefined,
          );
        }
        return page;
      },
      (error) => {
        if (!current()) return;
        setTimelineError(error);
        setLoading(false);
      },
    );
  };

  useEffect(() => {
    if (!ref) return;
    setEntries([]);
    setNext(null);
    loadPage(undefined, true).then((page) => {
      if (page && !initial.checkpoint && page.entries.length > 0) setSelected((old) => old ?? page.entries[0].id);
    });
  }, [refKey(ref), filter]);

  useEffect(() => {
    if (ref) writeHash(ref, selected);
  }, [refKey(ref), selected]);

  // Loading starts in the same render as the new filter, so the timeline never shows the old
  // entries as the answer to the new question.
  const applyFilter = (value) => {
    if (value === filter) return;
    setLoading(true);
    setFilter(value);
  };
  const pick = (thread) => {
    if (refKey(thread) === refKey(ref)) return;
    setLoading(true);
    setEntries([]);
    setNext(null);
    setSelected(undefined);
    setCompare('parent');
    setRef(thread);
  };
  const failed = new Set([...entries.filter((e) => !e.verified && !e.unverified).map((e) => e.id), ...failedReads]).size;
  const unverified = entries.filter((e) => e.unverified).length;
  const chartEntries = useMemo(() => [...entries].reverse(), [entries]);

  return html`<div class="layout">
    <header>
      <h1>session-checkpoint inspect</h1>
      <span class="readonly">read-only · 127.0.0.1 only</span>
      <span class="verification" data-rows-read=${entries.length} data-rows-failed=${failed}>
        ${entries.length} steps read · <span class=${failed > 0 ? 'bad-text' : 'ok-text'}>${failed} failed verification</span>${unverified > 0 ? html` · <span class="unverified-text" data-rows-unverified=${unverified}>${unverified} unverified (an official saver's rows carry no hash)</span>` : null}
      </span>
      <button type="button" id="show-stats" aria-pressed=${showStats} onClick=${() => setShowStats((old) => !old)}>what takes the space</button>
    </header>
    ${showStats ? html`<${StatsPanel} onClose=${() => setShowStats(false)} />` : null}
    <aside class="sidebar">
      <h2>Threads and sessions</h2>
      ${threadsError ? html`<${ErrorBox} error=${threadsError} what="the threads" />` : threads === null ? html`<p class="loading">reading…</p>` : threads.length === 0 ? html`<p class="empty">This store holds no threads.</p>` : html`<${Threads} threads=${threads} current=${ref} onPick=${pick} />`}
    </aside>
    <main class="center">
      ${ref
        ? html`<h2 class="thread-title">${ref.family} <code>${ref.thread}</code>${entries[0]?.story?.interrupt && !entries.some((e) => e.parent === entries[0].id) ? html`<span class="waiting-badge" data-waiting-interrupt>waiting on interrupt</span>` : null}</h2>
            <form class="filter" onSubmit=${(event) => { event.preventDefault(); applyFilter(filterText.trim()); }}>
              <input name="changed" placeholder="changed path, e.g. /messages" value=${filterText} onInput=${(event) => setFilterText(event.currentTarget.value)} />
              <button type="submit">filter</button>
              ${filter ? html`<button type="button" class="clear" onClick=${() => { setFilterText(''); applyFilter(''); }}>clear</button> <span class="filter-on">steps that changed <code>${filter}</code></span>` : null}
            </form>
            ${entries.length > 0 ? html`<${SizeChart} entries=${chartEntries} selected=${selected} onSelect=${setSelected} />` : null}
            ${timelineError ? html`<${ErrorBox} error=${timelineError} what="the timeline" />` : null}
            <${Timeline} entries=${entries} selected=${selected} compare=${compare === 'parent' ? null : compare} onSelect=${setSelected} next=${next} loading=${loading} total=${filter ? undefined : total} filter=${filter} onLoadEarlier=${() => loadPage(next, false)} />`
        : html`<p class="empty">Pick a thread.</p>`}
    </main>
    ${ref ? html`<${Detail} ref=${ref} entries=${entries} selected=${selected} compare=${compare} setCompare=${setCompare} tab=${tab} setTab=${setTab} onFailed=${(id) => setFailedReads((old) => new Set([...old, id]))} internal=${internal} setInternal=${setInternal} />` : null}
  </div>`;
}

render(html`<${App} />`, document.getElementById('app'));
