// Options for a quick command through the runner; tests override what they exercise.
import type { RunOptions } from '../src/run-process.ts'

export { isGone, readPid, tempDir, waitForLine } from '../src/testing.ts'

export function runOptions(cwd: string, overrides: Partial<RunOptions> & { command: string }): RunOptions {
  return {
    cwd,
    env: process.env,
    timeoutMs: 20_000,
    graceMs: 200,
    maxOutputBytes: 64_000,
    merge: true,
    ...overrides,
  }
}
