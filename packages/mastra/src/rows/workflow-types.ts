/** A workflow run's current record as stored (the snapshot itself is in snapshot row `seq`). */
export interface StoredRun {
  workflowName: string;
  runId: string;
  resourceId?: string;
  createdAt: string;
  updatedAt: string;
  /** The newest snapshot's number (snapshots are numbered from 1 and all kept). */
  seq: number;
  /** The newest snapshot's `status`, for `listWorkflowRuns({ status })` without reading snapshots. */
  status?: string;
}
