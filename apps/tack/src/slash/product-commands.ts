// `/compact`, `/dice` and `/state` (80-cli.md §5.4): the companion features' short reports and actions
// for this session, through the same code as `tack dice …`, `tack state …` and `tack run "/compact"`.
import type { CommandDefinition, CommandResult } from '@tack/commands'
// erased at run time: the compaction package loads only when /compact runs
import type { CompactionService } from '@tack/compaction'
import type { Context } from 'cordis'

export interface ProductPaths {
  /** $TACK_HOME: where agent-state's snapshots and agent-dice's data live under tack. */
  readonly home: string
}

export function productCommands(ctx: Context, paths: ProductPaths): CommandDefinition[] {
  const env = { ...process.env, TACK_HOME: paths.home }
  return [
    {
      name: 'compact',
      description: 'Summarise older messages to free context; optional instructions say what to keep',
      args: 'instructions',
      run: async ({ agent, args, signal }): Promise<CommandResult> => {
        const compaction = ctx.get('compaction') as CompactionService | undefined
        if (!compaction)
          return {
            kind: 'error',
            message:
              '/compact needs the compaction plugin, which the config turns off (plugins.compaction: false)',
          }
        const result = await compaction.compact(agent, {
          signal,
          ...(args ? { instructions: args } : {}),
        })
        const { compactionAnswer } = await import('@tack/compaction')
        const answer = compactionAnswer(result)
        return answer.ok
          ? { kind: 'text', text: answer.text }
          : { kind: 'error', message: `/compact: ${answer.error}` }
      },
    },
    {
      name: 'dice',
      description: "agent-dice's slots and their odds (tack dice list)",
      run: async () => {
        const { runTackDice } = await import('agent-dice/tack')
        return captured((out, err) =>
          runTackDice(['list'], { env, cwd: process.cwd(), stdout: out, stderr: err }),
        )
      },
    },
    {
      name: 'state',
      description: "agent-state's report of this session (tack state status)",
      run: async ({ agent }) => {
        const { main } = await import('agent-state')
        const io = (out: (s: string) => void, err: (s: string) => void) => ({
          env,
          stdout: { write: out, isTTY: false },
          stderr: { write: err },
        })
        const result = await captured((out, err) => main(['status', agent.session.id, '--all'], io(out, err)))
        if (result.kind !== 'error' || !result.message.startsWith('No session matches')) return result
        // No snapshot: agent-state's mod writes them and tack loads it only when asked to.
        const dir = await captured((out, err) => main(['plugin-dir'], io(out, err)))
        const modDir = dir.kind === 'text' && dir.text ? dir.text : '$(tack state plugin-dir)'
        return {
          kind: 'text',
          text: [
            `agent-state has no snapshot of this session (${agent.session.id.slice(0, 8)}): its mod is not loaded.`,
            `Start tack with --mod ${JSON.stringify(modDir)}, or add {"dir": ${JSON.stringify(modDir)}} to plugins.mods.mods in the config.`,
          ].join('\n'),
        }
      },
    },
  ]
}

/** Runs a product CLI with its output captured: its stdout as `text`, else (failing) its stderr as `error`. */
async function captured(
  run: (out: (s: string) => void, err: (s: string) => void) => Promise<number>,
): Promise<CommandResult> {
  let stdout = ''
  let stderr = ''
  const code = await run(
    (s) => {
      stdout += s
    },
    (s) => {
      stderr += s
    },
  )
  if (code === 0 || stdout.trim()) return { kind: 'text', text: stdout.trimEnd() }
  return { kind: 'error', message: stderr.trim().split('\n')[0] || `exited ${code}` }
}
