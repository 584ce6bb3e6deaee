// System prompt assembly (AL-25): named, ordered sections contributed by plugins. Each step sorts
// them by (order, name), evaluates functions, drops empty results and joins with a blank line, so
// equal inputs give byte-identical prompts whatever the registration order.
import type { ToolAgent } from '@tack/tools'
import type { Context } from 'cordis'

export interface SystemPromptSection {
  readonly name: string
  readonly order: number
  /** A function gets the agent whose step is being assembled (TL-36: the tools section is per agent). */
  readonly text: string | ((agent?: ToolAgent) => string)
}

export class SystemPromptService {
  readonly #sections = new Map<string, SystemPromptSection>()

  /** Adds a section; returns its disposer. A duplicate name throws. */
  section(section: SystemPromptSection): () => void {
    if (this.#sections.has(section.name))
      throw new Error(`system prompt section "${section.name}" already exists`)
    this.#sections.set(section.name, section)
    return () => {
      if (this.#sections.get(section.name) === section) this.#sections.delete(section.name)
    }
  }

  /** Assembles the prompt; a throwing section propagates (the loop ends the turn `error`). */
  assemble(agent?: ToolAgent): string {
    const sorted = [...this.#sections.values()].sort((a, b) =>
      a.order !== b.order ? a.order - b.order : a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    )
    const parts: string[] = []
    for (const s of sorted) {
      const text = typeof s.text === 'function' ? s.text(agent) : s.text
      if (text) parts.push(text)
    }
    return parts.join('\n\n')
  }
}

/** Registers a section tied to the calling plugin's lifetime. */
export function addSystemPromptSection(ctx: Context, section: SystemPromptSection): () => void {
  return ctx.effect(() => ctx.systemPrompt.section(section), `system prompt section ${section.name}`)
}

declare module 'cordis' {
  interface Context {
    systemPrompt: SystemPromptService
  }
}
