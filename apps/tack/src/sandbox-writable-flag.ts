// `--sandbox-writable PATH` (repeatable; docs/decisions/0315-leaving-the-sandbox.md): folders sandboxed
// commands may write in this run, added after `plugins.bash.sandboxWritable`. The flag is the user's own,
// so it applies in an untrusted workspace too, where the config field is held back
// (config/untrusted-fields.ts). A path is relative to the folder tack was started in, as a shell completed
// it, and must be an existing folder: a typo would otherwise open nothing and say nothing. Naming a
// control folder itself (`--sandbox-writable .git`) opens it; naming the workspace does not open its
// control folders (packages/tool-bash sandbox-policy.ts).
import { statSync } from 'node:fs'
import { resolve } from 'node:path'
import { UsageError } from './args.ts'

export function parseSandboxWritable(values: readonly string[] | undefined, cwd: string): string[] {
  return (values ?? []).map((value) => {
    if (value.trim() === '') throw new UsageError('--sandbox-writable needs a path to an existing folder')
    const path = resolve(cwd, value)
    let folder = false
    try {
      folder = statSync(path).isDirectory()
    } catch {
      // Missing or unreadable: the same answer below.
    }
    if (!folder) throw new UsageError(`--sandbox-writable ${value}: ${path} is not an existing folder`)
    return path
  })
}

/** The bash plugin's `sandboxWritable` with the flag's folders after the config's. */
export function withSandboxWritable(
  merged: Record<string, unknown>,
  folders: readonly string[] | undefined,
): Record<string, unknown> {
  if (!folders || folders.length === 0) return {}
  const configured = Array.isArray(merged.sandboxWritable) ? (merged.sandboxWritable as unknown[]) : []
  return { sandboxWritable: [...configured, ...folders] }
}
