// `$<name>` in a prompt (85-skills-and-commands.md K4b, Codex's way of naming a skill): once the prompt is
// allowed, each mentioned skill's SKILL.md is attached after it as context from `plugin:skills`, which
// the log records once as a `context/message` (as MCP resource mentions are,
// docs/decisions/0245-mcp-resource-mentions.md). Only exact names of skills the model may load count,
// so `$HOME`, `$1`, `$PATH` and `$5.00` stay text. The prompt's text is kept as typed. `` !`cmd` `` in
// an attached body does not run: a mention gives words, the skill tool runs commands.
import type { Content, HookContext } from '@tack/agent'
import type { MentionProvider } from '@tack/commands'
import type { Context } from 'cordis'
import { expandInlineCommands } from './inline-commands.ts'
import { headLine } from './render.ts'
import { substituteSkillDir } from './arguments.ts'
import type { SkillsService } from './service.ts'
import type { KnowHowItem } from './types.ts'

// A mention starts a word and ends at a blank or sentence punctuation.
const MENTION = /(?<=^|\s)\$([a-z0-9][a-z0-9-]*)(?=$|[\s.,;:!?)\]}'"])/g

/** The distinct skills `text` mentions, in order: model-invocable skills only. */
export function mentionedSkills(text: string, service: SkillsService): KnowHowItem[] {
  const out = new Map<string, KnowHowItem>()
  for (const m of text.matchAll(MENTION)) {
    const name = m[1] as string
    const item = service.get(name)
    if (item && item.kind === 'skill' && !item.disableModelInvocation && !out.has(name)) out.set(name, item)
  }
  return [...out.values()]
}

export const SKILLS_SOURCE = { kind: 'plugin', name: 'skills' } as const

/** The context one mention attaches. */
export async function mentionContext(item: KnowHowItem, signal: AbortSignal): Promise<HookContext> {
  const body = await expandInlineCommands(
    substituteSkillDir(item.body, item.dir),
    { kind: 'keep', why: 'the skill was attached by a $mention; loading it with the skill tool runs them' },
    signal,
  )
  return {
    content: `$${item.name} (skill attached by mention) ${headLine(item)}\n\n${body.trim()}`,
    source: SKILLS_SOURCE,
  }
}

/**
 * Listens on `agent/prompt-submit` while `ctx` lives. Before the prompt goes on, the folders are looked
 * at again (`onRefresh` says what changed); after it is allowed, its mentions are attached.
 */
export function mountPromptListener(ctx: Context, service: SkillsService, onRefresh: () => void): void {
  ctx.on(
    'agent/prompt-submit',
    async (agent, prompt, next) => {
      onRefresh()
      const decision = await next()
      if (decision.action !== 'allow') return decision
      // A person's typed words only: a subagent's task is the model's, a plugin's prompt is not the person's.
      if (agent.parent || prompt.source.kind !== 'user') return decision
      const mentioned = mentionedSkills(typedText(decision.content ?? prompt.content), service)
      if (mentioned.length === 0) return decision
      const signal = agent.turnSignal ?? new AbortController().signal
      const attached: HookContext[] = []
      for (const item of mentioned) attached.push(await mentionContext(item, signal))
      return { ...decision, additionalContext: [...(decision.additionalContext ?? []), ...attached] }
    },
    { phase: 'plugins' },
  )
}

/**
 * The prompt box completes `$` words from the skills the model may load (the TUI's mention menu,
 * @tack/commands' registry): names starting with what was typed first, then names containing it.
 */
export function skillMentionProvider(service: SkillsService): MentionProvider {
  return {
    trigger: '$',
    complete: (query) => {
      const q = query.toLowerCase()
      const skills = service.items().filter((i) => i.kind === 'skill' && !i.disableModelInvocation)
      const starts = skills.filter((i) => i.name.startsWith(q))
      const within = skills.filter((i) => !i.name.startsWith(q) && i.name.includes(q))
      return [...starts, ...within].map((i) => ({ value: i.name, description: i.description }))
    },
  }
}

/** The prompt's first block: what the person typed (later blocks are data that came with it). */
function typedText(content: Content): string {
  return typeof content === 'string' ? content : (content[0]?.text ?? '')
}
