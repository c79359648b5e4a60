// A Mastra workflow whose step suspends for an approval, as one process of an application:
// "start" starts run <runId> and exits when it is suspended; "resume" (a new process) resumes it.
// Prints the run's status and result as one JSON line. Args: <target> <start|resume> <runId>
import { Mastra } from '@mastra/core';
import { createStep, createWorkflow } from '@mastra/core/workflows';
import { openPostgresStore, openSqliteStore } from '@session-checkpoint/store-kysely';
import { z } from 'zod';
import { createMastraStorage } from '../../dist/index.js';

const [target, mode, runId] = process.argv.slice(2);
const store = target.startsWith('sqlite:')
  ? await openSqliteStore(target.slice('sqlite:'.length))
  : await openPostgresStore(process.env.SC_PG_URL ?? '', { schema: target.slice('postgres:'.length), poolSize: 2 });
const double = createStep({ id: 'double', inputSchema: z.object({ amount: z.number() }), outputSchema: z.object({ amount: z.number() }), execute: async ({ inputData }) => ({ amount: inputData.amount * 2 }) });
const approve = createStep({
  id: 'approve',
  inputSchema: z.object({ amount: z.number() }),
  outputSchema: z.object({ amount: z.number(), approvedBy: z.string() }),
  resumeSchema: z.object({ approvedBy: z.string() }),
  suspendSchema: z.object({ ask: z.string() }),
  execute: async ({ inputData, resumeData, suspend }) => {
    if (!resumeData) return suspend({ ask: `approve ${inputData.amount}?` });
    return { amount: inputData.amount, approvedBy: resumeData.approvedBy };
  },
});
const payout = createWorkflow({ id: 'payout', inputSchema: z.object({ amount: z.number() }), outputSchema: z.object({ amount: z.number(), approvedBy: z.string() }) }).then(double).then(approve).commit();
const mastra = new Mastra({ workflows: { payout }, storage: createMastraStorage(store), logger: false });
const run = await mastra.getWorkflow('payout').createRun({ runId });
const result = mode === 'start' ? await run.start({ inputData: { amount: 21 } }) : await run.resume({ step: 'approve', resumeData: { approvedBy: 'ops' } });
console.log(JSON.stringify({ status: result.status, result: result.result ?? null, suspended: result.suspended ?? null }));
await store.close();
