// The `agent` plugin: provides `ctx.agents`, `ctx.modelAdapters` and `ctx.systemPrompt`. It needs
// `ctx.sessions` (from @tack/session) and `ctx.tools` (from @tack/tools).
import { type ConfigOf, definePlugin, Schema } from '@tack/kernel'
import { SDK_SECTION_NAME, SDK_SECTION_ORDER } from '@tack/tools'
import { AgentsService } from './agents.ts'
import { ModelAdapters } from './model-adapters.ts'
import { SystemPromptService } from './system-prompt.ts'

export const AgentConfig = Schema.object({
  maxStepsPerTurn: Schema.integer({
    min: 1,
    max: 1000000,
    default: 10000,
    description:
      'Steps (model requests) one turn may take before it ends with error MAX_STEPS. Far enough that real work never meets it: maxIdenticalCalls and maxTurnTokens are the guards (docs/decisions/0064-no-arbitrary-end.md).',
  }),
  maxParallelTools: Schema.integer({
    min: 1,
    max: 64,
    default: 8,
    description:
      'Read-only tool calls (access read or network) of one model message that may run at once; 1 runs every call alone (docs/decisions/0063-parallel-tool-calls.md).',
  }),
  maxIdenticalCalls: Schema.integer({
    min: 0,
    max: 1000,
    default: 5,
    description:
      'A turn ends with error LOOP_DETECTED when the model makes the same tool call (same tool, same arguments) this many times in a row; 0 turns the detector off.',
  }),
  maxTurnTokens: Schema.integer({
    min: 0,
    max: 1000000000000,
    default: 0,
    description:
      'Tokens (input + output of every request, as the provider reports them) one turn may use; past it the turn ends with error TOKEN_BUDGET before its next request. 0 means no budget.',
  }),
  model: Schema.string({
    default: '',
    description: 'The default model as `provider/model` for agents that do not set one.',
  }),
})
export type AgentConfig = ConfigOf<typeof AgentConfig>

export const AgentPlugin = definePlugin({
  name: 'agent',
  Config: AgentConfig,
  inject: ['sessions', 'tools'],
  apply(ctx, config) {
    ctx.provide('modelAdapters', new ModelAdapters())
    const systemPrompt = new SystemPromptService()
    // TL-19, TL-21: the Code Mode SDK, built by the registry from the current tool set at each
    // assembly; '' (dropped) in native mode, a throw (turn error) without a code runtime (TL-20).
    systemPrompt.section({
      name: SDK_SECTION_NAME,
      order: SDK_SECTION_ORDER,
      text: (agent) => ctx.tools.sdkSection(agent),
    })
    ctx.provide('systemPrompt', systemPrompt)
    ctx.provide('agents', new AgentsService(ctx, config))
  },
})
