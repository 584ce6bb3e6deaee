// `/model` and `/effort` (80-cli.md §5.4, 85-skills-and-commands.md I3,
// docs/decisions/0290-model-choice-and-effort.md). `/model X` switches through `switchAgentModel` (the
// `agent/model-switch` seam, logged `agent/model`); `/model` alone opens a picker in the TUI — the
// configured and catalogue models of usable providers at once, each provider's own list as it arrives —
// and answers the model in force elsewhere. `/effort [low|medium|high|default]` shows or switches the
// reasoning effort (logged `agent/effort`), refusing clearly for a model that takes none.
import {
  type Agent,
  type ModelAdapters,
  effortOf,
  isEffortChoice,
  setAgentEffort,
  switchAgentModel,
} from '@tack/agent'
import type {
  ChoiceBatch,
  CommandChoice,
  CommandDefinition,
  CommandResult,
  CommandSurface,
} from '@tack/commands'
import type { LlmProviders, ModelChoice } from '@tack/llm'
import type { Context } from 'cordis'
import { assertModelServed } from '../model-check.ts'

const SOURCE_DETAIL: Readonly<Record<ModelChoice['source'], string>> = {
  current: 'in use',
  config: 'configured',
  catalog: 'catalogue',
  endpoint: 'endpoint config',
  provider: "provider's list",
}

export function modelCommands(ctx: Context): CommandDefinition[] {
  return [
    {
      name: 'model',
      description:
        'Show or switch the model of this session (from the next request); alone in tack: pick one',
      args: 'provider/model',
      run: async ({ agent, args, surface }): Promise<CommandResult> => {
        if (!args) return modelAnswer(ctx, agent, surface)
        if (!/^[^/\s]+\/\S+$/.test(args))
          return {
            kind: 'error',
            message: `/model: ${JSON.stringify(args)} is not of the form provider/model`,
          }
        const adapters = ctx.get('modelAdapters') as ModelAdapters
        if (!adapters.adapterFor(args)) {
          const known = adapters.knownPatterns()
          return {
            kind: 'error',
            message: `/model: no provider serves ${args}${known.length ? ` (known: ${known.join(', ')})` : ''}`,
          }
        }
        // The check `tack run --model` makes at start (a key, an endpoint), so a switch to a model that
        // cannot answer is refused now rather than failing the next prompt.
        const problem = modelProblem(ctx, args)
        if (problem) return { kind: 'error', message: `/model: ${problem}` }
        // `agent/model-switch` listeners (a PreModelSwitch hook) may keep the model.
        const decision = await switchAgentModel(ctx, agent, args, 'command')
        if (decision.action === 'deny')
          return { kind: 'error', message: `/model: the switch to ${args} was refused: ${decision.reason}` }
        return {
          kind: 'text',
          text: `model set to ${args} (from the next request)${effortNote(ctx, agent, args)}`,
        }
      },
    },
    {
      name: 'effort',
      description:
        'Show or switch the reasoning effort: low, medium, high, or default (from the next request)',
      args: 'low|medium|high|default',
      run: ({ agent, args }): CommandResult => {
        const current = effortOf(agent)
        if (!args) {
          const support = effortSupportOf(ctx, agent.model)
          const shown = `reasoning effort: ${current ?? "default (the provider's own)"}`
          return { kind: 'text', text: support.ok ? shown : `${shown} — ${support.reason}` }
        }
        if (!isEffortChoice(args))
          return {
            kind: 'error',
            message: `/effort: ${JSON.stringify(args)} is not one of low, medium, high, default`,
          }
        if (args !== 'default') {
          const support = effortSupportOf(ctx, agent.model)
          if (!support.ok) return { kind: 'error', message: `/effort: ${support.reason}` }
        }
        setAgentEffort(agent, args)
        return {
          kind: 'text',
          text:
            args === 'default'
              ? "reasoning effort set to default: none is sent, the provider's own applies (from the next request)"
              : `reasoning effort set to ${args} (from the next request)`,
        }
      },
    },
  ]
}

/** `/model` alone: the picker's list in the TUI, the model in force elsewhere. */
function modelAnswer(ctx: Context, agent: Agent, surface: CommandSurface): CommandResult {
  const text = `model: ${agent.model || 'none configured (tack doctor says how to set one)'}`
  const llm = ctx.get('llmProviders') as LlmProviders | undefined
  if (surface !== 'tui' || !llm) return { kind: 'text', text }
  const current = agent.model
  const { choices, listable } = llm.modelChoices({
    ...(current ? { current } : {}),
    ...(agent.options.config?.model ? { configured: agent.options.config.model } : {}),
  })
  const toChoice = (c: ModelChoice): CommandChoice => ({
    value: c.model,
    detail: SOURCE_DETAIL[c.source],
    ...(c.model === current ? { current: true } : {}),
  })
  // Each provider's list arrives on its own; a failure is one line (provider-models.ts keeps keys out).
  const more = listable.map(
    ({ name }) =>
      (): Promise<ChoiceBatch> =>
        llm.listModels(name).then(
          (ids) => ({
            choices: ids.map((id) => toChoice({ model: `${name}/${id}`, source: 'provider' })),
          }),
          (error: unknown) => ({
            choices: [],
            note: `${name}: could not list its models: ${(error as Error).message}`,
          }),
        ),
  )
  return {
    kind: 'choose',
    title: 'Choose a model',
    command: 'model',
    choices: choices.map(toChoice),
    more,
    text,
  }
}

/** After a switch: a word when the effort in force does not apply to the new model. */
function effortNote(ctx: Context, agent: Agent, model: string): string {
  const effort = effortOf(agent)
  if (!effort) return ''
  const support = effortSupportOf(ctx, model)
  return support.ok ? '' : `; reasoning effort ${effort} is not sent: ${support.reason}`
}

function effortSupportOf(ctx: Context, model: string): { ok: true } | { ok: false; reason: string } {
  // Without the llm plugin (an embedder's own adapters) nothing says the model refuses one.
  const llm = ctx.get('llmProviders') as LlmProviders | undefined
  if (!model) return { ok: false, reason: 'no model is configured' }
  return llm ? llm.effortSupport(model) : { ok: true }
}

/** `assertModelServed`'s one line for `model`, or undefined when it can be used. */
function modelProblem(ctx: Context, model: string): string | undefined {
  // Without the llm plugin (an embedder's or a test's own adapters) there is no configuration to check.
  if (!ctx.get('llmProviders')) return undefined
  try {
    assertModelServed(ctx, model)
    return undefined
  } catch (error) {
    return (error as Error).message
  }
}
