// How a host shows a prompt a slash command expanded to (85-skills-and-commands.md C2,
// docs/decisions/0275-prompt-commands.md): the model gets Claude Code's header (`<command-message>`,
// `<command-name>`, `<command-args>`) and the whole body, while the person sees what they typed, `/name
// args`. Hosts apply it to the `user/message` a `command/expanded` event announces, live and on replay.
// Before the prompt goes, `ui/prompt-expansion` lets a listener (Claude Code's UserPromptExpansion hooks)
// block it or add context.
import type { Agent } from '@tack/agent'
import { waterfall } from '@tack/kernel'
import type { Context } from 'cordis'
import type { PromptExpansion, PromptExpansionDecision } from './seams.ts'

const HEADER =
  /^<command-message>[^<\n]*<\/command-message>\n<command-name>\/([^<\n]+)<\/command-name>(?:\n<command-args>([\s\S]*?)<\/command-args>)?/

/** `/name args` for an expanded command prompt; undefined for text without the header. */
export function typedCommandOf(text: string): string | undefined {
  const m = HEADER.exec(text)
  if (!m) return undefined
  return m[2] ? `/${m[1]} ${m[2]}` : `/${m[1]}`
}

/** Fires `ui/prompt-expansion`; `allow` when nobody listens. */
export function firePromptExpansion(
  ctx: Context,
  agent: Agent,
  expansion: PromptExpansion,
): Promise<PromptExpansionDecision> {
  return waterfall(ctx, 'ui/prompt-expansion', [agent, Object.freeze({ ...expansion })], () => ({
    action: 'allow' as const,
  }))
}
