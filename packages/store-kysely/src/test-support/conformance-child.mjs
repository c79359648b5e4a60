// How the conformance suite's child processes open the store under test (conformance.test.ts,
// the subjects' `otherProcess`): `location` is the open-target spec, `sqlite:<path>` or
// `pg:<schema>` (server from SC_PG_URL), opened with the built package as an application would.
import { openTarget } from './open-target.mjs';

export async function openAdapter(location) {
  return (await openTarget(location)).adapter;
}
