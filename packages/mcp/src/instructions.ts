// Servers' `instructions` from `initialize` (spec 55-mcp.md M12b) as one system prompt section: the
// system prompt is assembled for each request and never enters the conversation history, so this is
// request-only advisory context. One subsection per server name, in code-unit order of the names, so
// the text is byte-stable while the set of servers (and what they said) does not change.
import { addSystemPromptSection, type SystemPromptService } from '@tack/agent'
import type { ToolAudience } from '@tack/tools'
import type { Context } from 'cordis'

export const INSTRUCTIONS_SECTION = 'mcp-instructions'
/** After the core prompt (0) and the Code Mode SDK section (150). */
export const INSTRUCTIONS_ORDER = 200

/** Numbers the sections of server sets for an audience, so each has a name of its own. */
let audienceSections = 0

export class ServerInstructions {
  readonly #byServer = new Map<string, string>()

  set(server: string, text: string | undefined): void {
    const trimmed = text?.trim()
    if (trimmed) this.#byServer.set(server, trimmed)
    else this.#byServer.delete(server)
  }

  text(): string {
    if (this.#byServer.size === 0) return ''
    const names = [...this.#byServer.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    const parts = names.map((name) => `## ${name}\n${this.#byServer.get(name)}`)
    return `# MCP server instructions\nThe MCP servers whose tools are named mcp__<server>__<tool> say:\n\n${parts.join('\n\n')}`
  }

  /**
   * A section only `audience`'s agents read (an ACP session's own servers), after the configured
   * servers' one; returns its remover. Without a system prompt service (no agent) there is none.
   */
  mountFor(ctx: Context, audience: ToolAudience): () => void {
    const prompt = ctx.get('systemPrompt') as SystemPromptService | undefined
    if (!prompt) return () => undefined
    return prompt.section({
      name: `${INSTRUCTIONS_SECTION}:${++audienceSections}`,
      order: INSTRUCTIONS_ORDER,
      text: (agent) => (agent && audience(agent) ? this.text() : ''),
    })
  }

  /** Adds the section while `ctx`'s plugin is loaded, once the agent's system prompt service is there. */
  mount(ctx: Context): void {
    ctx.inject(['systemPrompt'], (sub) => {
      addSystemPromptSection(sub, {
        name: INSTRUCTIONS_SECTION,
        order: INSTRUCTIONS_ORDER,
        text: () => this.text(),
      })
    })
  }
}
