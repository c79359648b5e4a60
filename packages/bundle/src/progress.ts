/**
 * Progress reporting for long exports and imports. The CLI turns these events into a progress
 * line on stderr when stderr is a terminal; library callers can ignore them.
 */

/**
 * What is being counted:
 * - `export`: checkpoints read, verified and written (total unknown until the end: `null`);
 * - `validate`: bundle items checked and canonicalised;
 * - `preflight`: items compared with the store;
 * - `insert`: items written by an applied import.
 */
export type BundlePhase = 'export' | 'validate' | 'preflight' | 'insert';

/** One progress event. */
export interface BundleProgress {
  phase: BundlePhase;
  /** Items done so far in this phase. */
  done: number;
  /** Items this phase will handle, or `null` when not known in advance. */
  total: number | null;
}

/**
 * Receives progress events. Called synchronously and often (up to once per item); keep it cheap.
 *
 * @example
 * ```ts
 * await importBundle(store, text, { onProgress: ({ phase, done, total }) => console.error(phase, done, total) });
 * ```
 */
export type ProgressListener = (event: BundleProgress) => void;
