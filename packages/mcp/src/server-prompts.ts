// Every connected server's prompts as slash commands `/mcp__<server>__<prompt>` (spec 55-mcp.md M10), in
// the one command registry every host shows (@tack/commands): a new list replaces that server's commands.
// Running one gets the prompt from the server and sends its messages' text as the user's prompt. Without
// a command registry (a host with none) nothing is registered; a name the registry refuses is left out
// with one line.
import type { GetPromptResult, Prompt } from '@modelcontextprotocol/sdk/types.js'
import { type CommandResult, registerCommand } from '@tack/commands'
import type { McpConnection } from './connection.ts'
import { errorText } from './error-text.ts'
import { PerServerRegistrations } from './per-server.ts'
import { mcpToolName } from './names.ts'
import { promptArguments, usage } from './prompt-args.ts'

export class ServerPrompts extends PerServerRegistrations {
  /** Replaces `connection`'s commands with one per prompt of `prompts`. */
  replace(connection: McpConnection, prompts: readonly Prompt[]): void {
    const server = connection.name
    this.withdraw(server)
    const disposers: Array<() => void> = []
    for (const prompt of prompts) {
      const declared = prompt.arguments ?? []
      try {
        const dispose = registerCommand(this.ctx, {
          // the same name rules as its tools (names.ts), so `mcp__<server>__` reads alike in both
          name: mcpToolName(server, prompt.name),
          description: `${prompt.description ?? prompt.title ?? prompt.name} (MCP prompt of ${server})`,
          ...(declared.length > 0 ? { args: usage(declared) } : {}),
          run: async ({ args, signal }): Promise<CommandResult> => {
            const parsed = promptArguments(args, declared)
            if (!parsed.ok)
              return { kind: 'error', message: `/${mcpToolName(server, prompt.name)}: ${parsed.message}` }
            try {
              const text = promptText(await connection.prompt(prompt.name, parsed.values, signal))
              if (text === '')
                return { kind: 'error', message: `MCP prompt "${prompt.name}" of ${server} gave no text` }
              return { kind: 'prompt', text }
            } catch (error) {
              return {
                kind: 'error',
                message: `MCP prompt "${prompt.name}" of ${server}: ${errorText(error)}`,
              }
            }
          },
        })
        if (dispose) disposers.push(dispose)
      } catch (error) {
        this.warn(`MCP prompt "${prompt.name}" of server "${server}" is left out: ${errorText(error)}`)
      }
    }
    this.keep(server, disposers)
  }
}

/**
 * The prompt's messages as one user prompt: each message's text, an embedded text resource's text, and a
 * note for what is not text (an image, audio, a binary resource), in order, separated by blank lines.
 */
export function promptText(result: GetPromptResult): string {
  return result.messages
    .map(({ content }): string => {
      switch (content.type) {
        case 'text':
          return content.text
        case 'resource':
          return 'text' in content.resource ? content.resource.text : `[Resource: ${content.resource.uri}]`
        case 'resource_link':
          return `[Resource link: ${content.name}] ${content.uri}`
        case 'image':
        case 'audio':
          return `[${content.type} of ${content.mimeType} left out]`
        default:
          return content satisfies never
      }
    })
    .filter((text) => text !== '')
    .join('\n\n')
}
