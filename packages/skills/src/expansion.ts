// What the model gets for `/name args` (85-skills-and-commands.md C2), in Claude Code's shape: a header
// naming the command and its arguments (`<command-message>`, `<command-name>`, `<command-args>` — the
// lines Claude Code's transcripts carry for a custom command, and that transcript readers already know),
// then the body without its front matter, its placeholders filled and its `` !`cmd` `` run or kept.
// docs/decisions/0275-prompt-commands.md says what was and was not confirmed of Claude Code's shape.
import type { InlineCommandPolicy } from './inline-commands.ts'
import { fillBody, mayAct } from './render.ts'
import type { KnowHowItem } from './types.ts'

/** The header lines: the name, how it was named, and the arguments when there are any. */
export function commandHeader(name: string, args: string): string {
  const lines = [`<command-message>${name}</command-message>`, `<command-name>/${name}</command-name>`]
  if (args) lines.push(`<command-args>${args}</command-args>`)
  return lines.join('\n')
}

/** The body after Claude Code's line naming a skill's folder, filled as the `skill` tool fills it (render.ts). */
export async function expandedBody(
  item: KnowHowItem,
  args: string,
  policy: InlineCommandPolicy,
  signal: AbortSignal,
): Promise<string> {
  const body = await fillBody(item, args, policy, signal)
  return item.kind === 'skill' ? `Base directory for this skill: ${item.dir}\n\n${body}` : body
}

/** The whole prompt: the header, a blank line, the expanded body. */
export async function expandCommand(
  item: KnowHowItem,
  args: string,
  policy: InlineCommandPolicy,
  signal: AbortSignal,
): Promise<string> {
  const body = await expandedBody(item, args.trim(), policy, signal)
  return `${commandHeader(item.name, args.trim())}\n\n${body.replace(/\s+$/, '')}`
}

/**
 * K5: a body may run `` !`cmd` `` only when it is the person's own (their folders) or the workspace is
 * trusted; `why` is the note a kept body carries.
 */
export function mayRunInline(item: KnowHowItem, trusted: boolean): { ok: true } | { ok: false; why: string } {
  if (mayAct(item, trusted)) return { ok: true }
  return {
    ok: false,
    why: `${item.file} is the workspace's and the workspace is not trusted (trust it with \`tack trust\`)`,
  }
}
