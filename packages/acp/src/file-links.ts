// An editor's links to files (85-skills-and-commands.md I1, docs/decisions/0280-file-mentions.md): a
// `resource_link` with a `file:` URI is read as an `@path` mention is (@tack/tool-fs's `readFileLink`:
// inside the session's folder, not withheld by a deny rule, `read`'s shape and bounds) and given in the
// embedded resource's form; one that exists but is refused stays a reference, and stderr says why.
import { readFileLink } from '@tack/tool-fs'
import type { ToolAgent } from '@tack/tools'
import type { Context } from 'cordis'

export async function readFileLinkText(
  ctx: Context,
  agent: ToolAgent,
  uri: string,
  signal: AbortSignal,
  warn: (line: string) => void,
): Promise<string | undefined> {
  const linked = await readFileLink(ctx, agent, uri, signal)
  if (linked.kind === 'refused') warn(`tack acp: the file link ${uri} is not attached: ${linked.why}`)
  return linked.kind === 'text' ? linked.text : undefined
}
