// The CPU account shared by mastra-save-account.mjs and mastra-persist-account.mjs: entry points
// wrapped to take their CPU time (process.cpuUsage) exclusive of the wrapped calls inside them, so
// the parts add up to the call. The wrappers add some CPU of their own; read the shares.
import { createRequire } from 'node:module';

const cpu = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

/**
 * A fresh account. `wrap(obj, name, label)` counts `obj[name]`'s calls under `label` while the
 * account runs; `run(n, step)` runs `step(i)` for i in 0..n-1 with the account on and resolves to
 * the CPU µs per step; `print(what, n, perStep)` prints each label's exclusive µs and calls per
 * step. `Database` and `statementProto` are better-sqlite3's, to wrap its native calls.
 */
export function cpuAccount() {
  const self = new Map();
  const calls = new Map();
  let active = false;
  // A stack of open wrapped calls: each keeps the CPU its wrapped children took, to subtract.
  const stack = [];
  function wrap(obj, name, label) {
    const f = obj[name];
    obj[name] = function (...args) {
      if (!active) return f.apply(this, args);
      const frame = { start: cpu(), children: 0 };
      stack.push(frame);
      const done = () => {
        const spent = cpu() - frame.start;
        stack.splice(stack.lastIndexOf(frame), 1);
        self.set(label, (self.get(label) ?? 0) + spent - frame.children);
        calls.set(label, (calls.get(label) ?? 0) + 1);
        const parent = stack.at(-1);
        if (parent) parent.children += spent;
      };
      let result;
      try {
        result = f.apply(this, args);
      } catch (error) {
        done();
        throw error;
      }
      if (result && typeof result.then === 'function') return result.then((v) => (done(), v), (e) => { done(); throw e; });
      done();
      return result;
    };
  }
  async function run(n, step) {
    active = true;
    const c0 = cpu();
    for (let i = 0; i < n; i++) await step(i);
    const perStep = (cpu() - c0) / n;
    active = false;
    return perStep;
  }
  function print(what, n, perStep) {
    console.log(`${what}: CPU per call ${perStep.toFixed(1)} µs (wrapped); exclusive µs per call, calls per call:`);
    for (const [label, us] of [...self].sort((a, b) => b[1] - a[1])) console.log(`${(us / n).toFixed(1).padStart(7)}  ${(calls.get(label) / n).toFixed(1).padStart(4)}  ${label}`);
  }
  const Database = createRequire(import.meta.url)('better-sqlite3');
  const scratch = new Database(':memory:');
  const statementProto = Object.getPrototypeOf(scratch.prepare('select 1'));
  scratch.close();
  return { wrap, run, print, Database, statementProto };
}
