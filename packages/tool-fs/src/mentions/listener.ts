// `@path` mentions on `agent/prompt-submit` (85-skills-and-commands.md I1,
// docs/decisions/0280-file-mentions.md): once the prompt is allowed, each mentioned file (or folder) is
// attached after the prompt as context from `plugin:fs`, which the loop records once as a
// `context/message` right after the `user/message`: every later request, a resumed session and
// compaction replay the recorded text and read nothing again. The prompt's text stays as typed. A path
// that exists but may not be attached is said in one line to the person; the prompt goes on. As for MCP
// mentions (docs/decisions/0245-mcp-resource-mentions.md), only the first block of a top-level agent's
// user-sourced prompt is read: later blocks are data that came with it (piped stdin, an editor's blocks).
import type { Agent, Content, HookContext } from '@tack/agent'
import { withheldTestFor } from '@tack/tools'
import type { Context } from 'cordis'
import type { FsEnv } from '../env.ts'
import { attachMention, firstExisting } from './attach.ts'
import { findPathMentions } from './parse.ts'

const SOURCE = { kind: 'plugin', name: 'fs' } as const

export function listenForMentions(ctx: Context, env: FsEnv): void {
  const log = ctx.logger('fs')
  ctx.on(
    'agent/prompt-submit',
    async (agent: Agent, prompt, next) => {
      const decision = await next()
      if (decision.action !== 'allow' || agent.parent || prompt.source.kind !== 'user') return decision
      const max = env.config.mentionMaxFiles
      if (max === 0) return decision
      const mentions = findPathMentions(typedText(decision.content ?? prompt.content))
      if (mentions.length === 0) return decision
      const signal = agent.turnSignal ?? new AbortController().signal
      const scope = {
        env,
        root: agent.cwd,
        agent,
        withheld: await withheldTestFor(ctx, 'read', { cwd: agent.cwd, agent }),
        signal,
      }
      const attached: HookContext[] = []
      const seen = new Set<string>()
      let skipped = 0
      for (const mention of mentions) {
        if (attached.length === max) {
          // Past the cap nothing more is read: a mention that names something is only counted.
          if (await firstExisting(scope.root, mention.candidates)) skipped++
          continue
        }
        const outcome = await attachMention(scope, mention)
        if (outcome.kind === 'unknown') continue
        if (outcome.kind === 'refused') {
          log.warn('%s', `${mention.text}: not attached: ${outcome.why}`)
          continue
        }
        if (seen.has(outcome.path)) continue // `@a.ts` and `@./a.ts`: one file, attached once
        seen.add(outcome.path)
        attached.push({
          content: `${mention.text} (${outcome.what} ${outcome.path}):\n${outcome.body}`,
          source: SOURCE,
        })
      }
      if (skipped > 0)
        log.warn(
          '%s',
          `${skipped} more @ mention${skipped === 1 ? '' : 's'} not attached: at most ${max} per prompt (plugins.fs.mentionMaxFiles)`,
        )
      if (attached.length === 0) return decision
      return { ...decision, additionalContext: [...(decision.additionalContext ?? []), ...attached] }
    },
    // No phase named: the last one, `plugins` (after the hooks' `UserPromptSubmit`), and an embedder
    // whose kernel never loaded @tack/agent's phase declarations can still load the plugin.
  )
}

/** The words the person typed: the prompt's first block. */
function typedText(content: Content): string {
  return typeof content === 'string' ? content : (content[0]?.text ?? '')
}
