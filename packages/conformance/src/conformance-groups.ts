import type { ConformanceCase } from './types.js';
import { close } from './groups/close.js';
import { concurrency } from './groups/concurrency.js';
import { conditionalInsert } from './groups/conditional-insert.js';
import { crud } from './groups/crud.js';
import { ids } from './groups/ids.js';
import { integrity } from './groups/integrity.js';
import { isolation } from './groups/isolation.js';
import { namespaces } from './groups/namespaces.js';
import { ordering } from './groups/ordering.js';
import { persistence } from './groups/persistence.js';
import { retention } from './groups/retention.js';
import { sealed } from './groups/sealed.js';
import { sourceRef } from './groups/source-ref.js';
import { transactions } from './groups/transactions.js';

/**
 * The contract, by group, one module per group in `src/groups/`. The keys are the names that the
 * `only` and `skip` options of `runConformanceSuite` accept (typed: a misspelt group does not compile).
 */
export const CONFORMANCE_GROUPS = {
  crud,
  namespaces,
  ordering,
  sourceRef,
  ids,
  retention,
  transactions,
  conditionalInsert,
  isolation,
  concurrency,
  integrity,
  sealed,
  persistence,
  close,
} as const satisfies Record<string, readonly ConformanceCase[]>;
