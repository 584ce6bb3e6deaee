// What a command hands back to `runCli`: text lines for stdout, the fields of its `--json` object,
// and its exit code (a `check` with errors, a hook's 2).
export interface CommandResult {
  /** Text-mode stdout, one entry per line. */
  lines: string[]
  /** Text-mode stderr written as is (a hook's nudge). */
  stderrText?: string
  /** Text-mode stdout written as is (a hook's roll lines). */
  stdoutText?: string
  /** Fields of the JSON object after `ok` and `command`. */
  data: Record<string, unknown>
  exitCode?: number
  /** `ok` in JSON; defaults to true. */
  ok?: boolean
}
