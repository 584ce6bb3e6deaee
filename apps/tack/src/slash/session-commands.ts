// `/help`, `/clear`, `/resume`, `/cost` and `/export` (80-cli.md §5.4): what a person asks about the
// session itself. `/clear` and `/resume` switch sessions, which only the interactive UI does.
import { writePrivateFile } from '@tack/kernel/private-files'
import { homedir } from 'node:os'
import { extname, resolve } from 'node:path'
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
      run: ({ surface, columns }) => ({ kind: 'text', text: helpText(ctx, surface, columns) }),
    },
    {
      // In the registry (not only the screen's own menu) so that /help lists it with the rest.
      name: 'exit',
      description: 'End the session and leave tack',
      surfaces: ['tui'],
      run: () => ({ kind: 'exit' }),
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
      run: async ({ args, agent }): Promise<CommandResult> => {
        if (!args) return { kind: 'resume' }
        try {
          const found = await findSession(ctx.get('sessionStore') as SessionStore, args)
          // This UI's plugins, hooks and project config are its folder's, loaded under that folder's
          // trust; another folder's session opens in its own (docs/decisions/0140-acp-trust-per-session.md).
          if (found.cwd !== agent.cwd) return { kind: 'error', message: otherFolder(found.id, found.cwd) }
          return { kind: 'resume', sessionId: found.id }
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
        const stats = runStats(agent.session.events(), agent.model, costOf)
        // Before any request runStats's total is a plain 0; whether a price is known comes from the model.
        const priced = costOf(agent.model, { inputTokens: 0, outputTokens: 0 }) !== undefined
        return { kind: 'text', text: costText(stats, agent.model, priced) }
      },
    },
    {
      name: 'export',
      description: 'Write this session to a file: markdown (.md) or a Claude Code transcript (.jsonl)',
      args: 'path',
      run: async ({ agent, args }): Promise<CommandResult> => {
        const path = exportPath(agent.cwd, args || `tack-${agent.session.id.slice(0, 8)}.md`)
        // The extension picks the format, so any other one is refused rather than silently written as markdown.
        if (!EXPORT_FORMATS.includes(extname(path)))
          return {
            kind: 'error',
            message: `/export: ${args} must end in .md (markdown) or .jsonl (Claude Code transcript)`,
          }
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
          // The whole conversation: owner-only, like the store it came from (docs/decisions/0145-private-files.md).
          writePrivateFile(path, text)
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

const EXPORT_FORMATS = ['.md', '.jsonl']

/** Where `/export` writes: `~` and `~/…` are the home folder (no shell expands them here), else relative to cwd. */
function exportPath(cwd: string, arg: string): string {
  if (arg === '~' || arg.startsWith('~/')) return resolve(homedir(), arg.slice(2))
  return resolve(cwd, arg)
}

// Descriptions are wrapped here, under their own column: a host wrapping a long line itself would start
// its continuation at column 0, under the command names. ACP clients lay text out themselves.
function helpText(ctx: Context, surface: CommandSurface, columns: number): string {
  const lines = ctx.commands.list({ surface }).map((c) => {
    const usage = c.args ? `/${c.name} [${c.args}]` : `/${c.name}`
    return { usage, description: c.description }
  })
  const width = Math.max(...lines.map((l) => l.usage.length))
  const room = surface === 'acp' ? Number.POSITIVE_INFINITY : Math.max(20, columns - width - 2)
  return lines
    .map((l) =>
      wrapWords(l.description, room)
        .map((part, i) => `${(i === 0 ? l.usage : '').padEnd(width)}  ${part}`.trimEnd())
        .join('\n'),
    )
    .join('\n')
}

/** Splits `text` at spaces into lines of at most `width` characters (a longer word stays whole). */
function wrapWords(text: string, width: number): string[] {
  const lines: string[] = []
  let line = ''
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line)
      line = word
    } else line = line ? `${line} ${word}` : word
  }
  return [...lines, line]
}

// One wording for an unknown price everywhere in /cost; a known price is always dollars.
function costText(stats: ReturnType<typeof runStats>, model: string, priced: boolean): string {
  const u = stats.usage
  if (stats.steps === 0 && !model) return 'no model requests yet (no model configured)'
  if (stats.steps === 0)
    return ['no model requests yet', `cost: ${priced ? '$0.0000' : `unknown (no price for ${model})`}`].join(
      '\n',
    )
  // runStats makes the total unknown when any request's model had no price, maybe an earlier model.
  const cost =
    stats.costUsd !== undefined
      ? `$${stats.costUsd.toFixed(4)}`
      : `unknown (no price for ${priced ? 'a model used earlier in this session' : model})`
  return [
    `${stats.turns} turn${stats.turns === 1 ? '' : 's'}, ${stats.steps} model request${stats.steps === 1 ? '' : 's'}`,
    `tokens: ${u.inputTokens} input (${u.cachedInputTokens} cached), ${u.outputTokens} output`,
    `cost: ${cost}`,
  ].join('\n')
}

/** Why `/resume` does not open a session of another folder, and how to open it there. */
export function otherFolder(id: string, cwd: string): string {
  return `/resume: session ${id.slice(0, 8)} ran in ${cwd}; its folder's settings and trust apply to it — quit and run \`tack -r ${id}\``
}
