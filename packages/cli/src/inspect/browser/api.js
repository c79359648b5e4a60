// Requests to the inspector's own server (the only origin the page's Content-Security-Policy
// allows). The token travels in the HttpOnly cookie set on first load.

/** Query string of a thread reference plus extra parameters. */
export function query(ref, extra = {}) {
  const params = new URLSearchParams();
  params.set('family', ref.family);
  params.set('namespace', ref.namespace);
  params.set('thread', ref.thread);
  if (ref.checkpointNs !== undefined && ref.checkpointNs !== null) params.set('checkpoint_ns', ref.checkpointNs);
  for (const [key, value] of Object.entries(extra)) if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  return params.toString();
}

/** GET a JSON endpoint; a failure becomes an Error carrying the server's message and type. */
export async function getJson(path) {
  const response = await fetch(path, { credentials: 'same-origin', headers: { Accept: 'application/json' } });
  const body = await response.json().catch(() => ({ ok: false, error: `${response.status} ${response.statusText}`, type: 'HttpError' }));
  if (!response.ok) {
    const error = new Error(body.error ?? `${response.status}`);
    error.type = body.type ?? 'HttpError';
    throw error;
  }
  return body;
}

/**
 * The label of a framework family's step: a chat save's messages added and replaced (a fork
 * replaces), a Mastra thread change's operation, a workflow snapshot's status.
 */
function frameworkLabel(entry) {
  if (typeof entry.added === 'number') return `+${entry.added}${entry.replaced > 0 ? ` -${entry.replaced} (fork)` : ''} message${entry.added === 1 ? '' : 's'}`;
  if (typeof entry.op === 'string') return `${entry.op}, ${entry.count} message${entry.count === 1 ? '' : 's'}`;
  if (typeof entry.run_status === 'string') return entry.run_status;
  return undefined;
}

/**
 * A timeline entry as the page draws it, from the readers' shape (any family): id, parent,
 * verification, a step number and a short label.
 */
export function view(entry) {
  const metadata = entry.metadata && typeof entry.metadata === 'object' ? entry.metadata : {};
  const label = typeof metadata.source === 'string' ? metadata.source : entry.items !== undefined ? `${entry.items} item${entry.items === 1 ? '' : 's'}` : (frameworkLabel(entry) ?? entry.kind ?? null);
  return {
    id: entry.checkpoint_id,
    parent: entry.parent_checkpoint_id,
    createdAt: entry.created_at,
    step: typeof metadata.step === 'number' ? metadata.step : entry.position ?? entry.row_id ?? null,
    label,
    bytes: entry.bytes,
    verified: entry.status === 'verified',
    // A row of an official saver's store (--from): it carries no hash, so it is neither verified nor failed.
    unverified: entry.status === 'unverified',
    // A store opened with keys: { sealed, encrypted, verified } of the row; null otherwise.
    seal: entry.seal ?? null,
    error: entry.error ? `${entry.error.code}: ${entry.error.message}` : null,
    channels: entry.changed_channels,
    changes: entry.changes,
    changeError: entry.change_error ?? null,
    // The story (nodes, messages added, interrupt) arrives from /api/story after the page is drawn.
    story: null,
  };
}

/** The threads list, one line per (thread, checkpoint namespace). */
export function threadRefs(threads) {
  return threads.flatMap((t) =>
    (t.checkpoint_ns && t.checkpoint_ns.length > 0 ? t.checkpoint_ns : ['']).map((ns) => ({
      family: t.family,
      namespace: t.namespace,
      thread: t.thread_id,
      checkpointNs: ns,
      count: t.count,
      bytes: t.bytes,
      latest: t.latest_created_at,
    })),
  );
}
