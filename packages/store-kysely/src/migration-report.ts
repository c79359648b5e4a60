/** What {@link migrateToLatest} did. */
export interface MigrationReport {
  /** True when the store was created by this call. */
  created: boolean;
  /** Schema version found (0 for a new store). */
  from: number;
  /** Schema version now. */
  to: number;
}
