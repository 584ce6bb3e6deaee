// A stand-in for tack in the crash tests: runs one sandboxed command and stays until it ends or is
// killed. `node sandboxed-child.ts <workspace> <ledger> <command>`; the policy protects `.tack` and
// `.claude` in the workspace, so their placeholders are recorded in `<ledger>` while the command runs.
import { join } from 'node:path'
import { runProcess } from '../src/run-process.ts'
import { detectSandbox } from '../src/sandbox/detect.ts'
import { sandboxWrapper } from '../src/sandbox/wrapper.ts'

const [work, ledger, command] = process.argv.slice(2)
const support = await detectSandbox()
if (support.kind === 'none') throw new Error(support.reason)
const policy = {
  writable: [work],
  readOnly: [join(work, '.tack'), join(work, '.claude')],
  hidden: [],
  revealed: [],
  network: false,
}
const run = await runProcess({
  command,
  cwd: work,
  env: { PATH: process.env.PATH },
  timeoutMs: 60_000,
  graceMs: 200,
  maxOutputBytes: 10_000,
  merge: true,
  wrapper: sandboxWrapper(support, policy, { placeholderLedger: ledger }),
})
process.stdout.write(run.stdout)
