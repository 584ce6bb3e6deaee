// The bins' entry: runs the CLI against this process and sets the exit code (never `process.exit`,
// so output is flushed first).
import { runCli } from './run.ts'

export async function runCliProcess(): Promise<void> {
  process.exitCode = await runCli(process.argv.slice(2), {
    env: process.env,
    cwd: process.cwd(),
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
  })
}
