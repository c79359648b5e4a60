/**
 * A workflow run's record as stored: what changes rarely. Its snapshots are rows of their own,
 * numbered from 1 and all kept (`s/<workflow>/<run>/<seq>`, payload `{ workflowName, runId, seq,
 * updatedAt, value }`); the newest is the run's state.
 */
export interface StoredRun {
  workflowName: string;
  runId: string;
  resourceId?: string;
  createdAt: string;
  /** The newest snapshot's `status`, for `listWorkflowRuns({ status })` without reading snapshots. */
  status?: string;
}
