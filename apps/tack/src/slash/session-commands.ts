// `/help`, `/clear`, `/resume`, `/cost` and `/export` (80-cli.md §5.4): what a person asks about the
// session itself. `/clear` and `/resume` switch sessions, which only the interactive UI does.
import { writeFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import type { CommandDefinition, CommandResult, CommandSurface } from '@tack/commands'
import type { SessionStore } from '@tack/session'
import type { Context } from 'cordis'
import { runStats } from '../commands/run-json.ts'
import { findSession } from '../session-ref.ts'

export function sessionCommands(ctx: Context): CommandDefinition[] {
  return [
    {
      name: 'help',
      description: 'List the slash commands',
      run: ({ surface }) => ({ kind: 'text', text: helpText(ctx, surface) }),
    },
    {
      name: 'clear',
      description: 'End this session and start a new one in this folder',
      surfaces: ['tui'],
      run: () => ({ kind: 'clear' }),
    },
    {
      name: 'resume',
      description: 'Switch to another session (a picker without an id)',
      args: 'session id',
      surfaces: ['tui'],
      run: async ({ args }): Promise<CommandResult> => {
        if (!args) return { kind: 'resume' }
        try {
          return {
            kind: 'resume',
            sessionId: (await findSession(ctx.get('sessionStore') as SessionStore, args)).id,
          }
        } catch (error) {
          return { kind: 'error', message: `/resume: ${(error as Error).message.split('\n')[0]}` }
        }
      },
    },
    {
      name: 'cost',
      description: 'Tokens and cost of this session so far',
      run: async ({ agent }) => {
        const { costOf } = await import('@tack/llm')
        return { kind: 'text', text: costText(runStats(agent.session.events(), agent.model, costOf)) }
      },
    },
    {
      name: 'export',
      description: 'Write this session to a file: markdown (.md) or a Claude Code transcript (.jsonl)',
      args: 'path',
      run: async ({ agent, args }): Promise<CommandResult> => {
        const path = resolve(agent.cwd, args || `tack-${agent.session.id.slice(0, 8)}.md`)
        const events = agent.session.events()
        const header = agent.session.header
        let text: string
        if (path.endsWith('.jsonl')) {
          const { exportClaudeTranscript } = await import('../commands/export-claude.ts')
          text = await exportClaudeTranscript(header, events, ctx.get('tools'))
        } else {
          const { exportMarkdown } = await import('../commands/export-markdown.ts')
          text = exportMarkdown(header, events)
        }
        try {
          await writeFile(path, text, { flag: 'w' })
        } catch (error) {
          return {
            kind: 'error',
            message: `/export: cannot write ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
          }
        }
        return { kind: 'text', text: `exported to ${path}` }
      },
    },
  ]
}

function helpText(ctx: Context, surface: CommandSurface): string {
  const lines = ctx.commands.list({ surface }).map((c) => {
    const usage = c.args ? `/${c.name} [${c.args}]` : `/${c.name}`
    return { usage, description: c.description }
  })
  const width = Math.max(...lines.map((l) => l.usage.length))
  return lines.map((l) => `${l.usage.padEnd(width)}  ${l.description}`).join('\n')
}

function costText(stats: ReturnType<typeof runStats>): string {
  const u = stats.usage
  const cost =
    stats.costUsd === undefined ? 'cost unknown (no price for this model)' : `$${stats.costUsd.toFixed(4)}`
  return [
    `${stats.turns} turn${stats.turns === 1 ? '' : 's'}, ${stats.steps} model request${stats.steps === 1 ? '' : 's'}`,
    `tokens: ${u.inputTokens} input (${u.cachedInputTokens} cached), ${u.outputTokens} output`,
    `cost: ${cost}`,
  ].join('\n')
}
