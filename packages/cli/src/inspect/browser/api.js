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
