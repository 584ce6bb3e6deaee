// The hook files' entry: read stdin, run the hook against this process, write, set the exit code.
// It never calls `process.exit`, so buffered output is flushed before the process ends.
import { readFileSync } from 'node:fs'
import type { HookName } from './io.ts'
import { runHook } from './run.ts'

/** All of stdin (empty when it is closed or unreadable). */
export function readStdin(): string {
  try {
    return readFileSync(0, 'utf8')
  } catch {
    return ''
  }
}

export async function runHookProcess(name: HookName): Promise<void> {
  let code = 0
  try {
    code = await runHook(name, {
      stdin: readStdin(),
      env: process.env,
      cwd: process.cwd(),
      stdout: (text) => process.stdout.write(text),
      stderr: (text) => process.stderr.write(text),
    })
  } catch {
    code = 0
  }
  process.exitCode = code
}
