// Options for a quick command through the runner; tests override what they exercise.
import { join } from 'node:path'
import { expect } from 'vitest'
import type { ProcessResult, RunOptions } from '../src/run-process.ts'
import { isGone, readPid, tempDir } from '../src/testing.ts'

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

/**
 * Runs a command (in a fresh folder) that records a grandchild's pid in `gc.pid` and outlives its
 * timeout; the run must time out and take the grandchild with it.
 */
export async function expectGrandchildGoneAfterTimeout(
  run: (dir: string) => Promise<ProcessResult>,
): Promise<void> {
  const dir = await tempDir()
  const result = await run(dir)
  const pid = await readPid(join(dir, 'gc.pid'))
  expect(result.timedOut).toBe(true)
  expect(isGone(pid)).toBe(true)
}
