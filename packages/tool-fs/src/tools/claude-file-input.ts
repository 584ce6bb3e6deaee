// The Claude Code input of a file tool (docs/decisions/0210-host-protocol-packages.md): Claude's file
// tools take the same field names as tack's, with `file_path` made absolute.
import { type ClaudeToolInput, claudeAbsolutePath, claudeDefined } from '@tack/claude-protocol'
import { isJsonObject } from '@tack/tools'

/** `file_path` (absolute), then `fields` as the call gives them; fields the call leaves out stay out. */
export function claudeFileInput(args: unknown, cwd: string, fields: readonly string[]): ClaudeToolInput {
  const a = isJsonObject(args) ? args : {}
  return claudeDefined({
    file_path: claudeAbsolutePath(a.file_path, cwd),
    ...Object.fromEntries(fields.map((field) => [field, a[field]])),
  })
}
