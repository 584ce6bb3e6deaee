// Every prompt command, and every skill people may invoke, as a slash command in the one registry all
// hosts read (85-skills-and-commands.md C1–C3): the TUI's `/` menu, `tack run "/name args"` and ACP's
// available commands. Running one expands it (expansion.ts) and answers `{kind: 'prompt', text}`; what it
// asks for its own turn (a model, `allowed-tools`) waits in `CommandTurns` for that prompt. A name a
// built-in command or an MCP prompt holds stays theirs, whichever registers first (the registry's
// `yields`), said once on stderr naming the file.
import {
  type CommandInvocation,
  type CommandResult,
  firePromptExpansion,
  registerCommand,
} from '@tack/commands'
import type { ToolAgent, ToolRegistry } from '@tack/tools'
import type { Context } from 'cordis'
import { commandModelOf, modelProblem, untrustedModelProblem } from './command-model.ts'
import type { CommandTurns } from './command-turns.ts'
import { withExpansionGrant } from './grants.ts'
import { commandHeader, expandCommand, mayRunInline } from './expansion.ts'
import type { InlineCommandPolicy, InlineCommandRunner } from './inline-commands.ts'
import { bashRunner } from './inline-runner.ts'
import type { SkillsService } from './service.ts'
import { understoodPatterns } from './tool-patterns.ts'
import type { KnowHowItem } from './types.ts'

/** Registers each person-invocable item; returns how many were offered. */
export function registerSlashCommands(ctx: Context, service: SkillsService, turns: CommandTurns): number {
  const logger = ctx.logger('skills')
  let offered = 0
  for (const item of service.items()) {
    if (!item.userInvocable) continue
    try {
      registerCommand(ctx, {
        name: item.name,
        description: item.description,
        ...(item.argumentHint ? { args: item.argumentHint } : {}),
        yields: (name) =>
          logger.warn(`${item.file}: /${name} is also a built-in command; the built-in is used`),
        run: (invocation) => runItem(ctx, service, turns, service.get(item.name) ?? item, invocation),
      })
      offered++
    } catch (error) {
      logger.warn(`${item.file}: not offered as /${item.name}: ${(error as Error).message}`)
    }
  }
  return offered
}

let expansions = 0

async function runItem(
  ctx: Context,
  service: SkillsService,
  turns: CommandTurns,
  item: KnowHowItem,
  { agent, args, signal }: CommandInvocation,
): Promise<CommandResult> {
  const chosen = commandModelOf(item)
  if (!chosen.ok) return { kind: 'error', message: `/${item.name}: ${chosen.problem}` }
  const inline = mayRunInline(item, service.trusted)
  if (chosen.model) {
    const problem =
      untrustedModelProblem(item, chosen.model, inline.ok) ?? modelProblem(ctx, chosen.model, item.file)
    if (problem) return { kind: 'error', message: `/${item.name}: ${problem}` }
  }
  const idPrefix = `command:${item.name}:${++expansions}`
  const policy: InlineCommandPolicy = inline.ok
    ? { kind: 'run', run: bashRunnerFor(ctx, agent, idPrefix) }
    : { kind: 'keep', why: inline.why }
  // a trusted command's allowed-tools cover its own !`cmd`, which run now, before its turn exists
  const text = await withExpansionGrant(
    agent,
    idPrefix,
    inline.ok ? understoodPatterns(item.allowedTools) : [],
    () => expandCommand(item, args, policy, signal),
  )
  // Claude Code's UserPromptExpansion hooks (through hooks-claude) may stop it or add context first.
  const decision = await firePromptExpansion(ctx, agent, {
    type: 'slash-command',
    name: item.name,
    args: args.trim(),
    source: item.scope,
    prompt: text,
  })
  if (decision.action === 'block') return { kind: 'error', message: `/${item.name}: ${decision.reason}` }
  for (const context of decision.additionalContext ?? []) agent.inject(context)
  if (item.allowedTools.length > 0 && !inline.ok)
    ctx
      .logger('skills')
      .warn(`${item.file}: allowed-tools ignored: the workspace is not trusted (its tools ask as usual)`)
  turns.expect(agent, {
    header: commandHeader(item.name, args.trim()),
    item,
    ...(chosen.model ? { model: chosen.model } : {}),
    allowedTools: inline.ok ? item.allowedTools : [],
  })
  return { kind: 'prompt', text }
}

/** A runner through the registry as it is when a command runs; without a bash tool every command fails with that reason. */
function bashRunnerFor(ctx: Context, agent: ToolAgent, idPrefix: string): InlineCommandRunner {
  let runner: InlineCommandRunner | undefined
  return async (command, signal) => {
    const tools = ctx.get('tools') as ToolRegistry | undefined
    if (!tools?.get('bash')) return { kind: 'failed', reason: 'the bash tool is not loaded' }
    runner ??= bashRunner(tools, { agent, cwd: agent.cwd, idPrefix })
    return runner(command, signal)
  }
}
