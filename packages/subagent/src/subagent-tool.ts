// The `subagent` tool (TL-18, in-process backend): runs one turn of a child agent on a new session
// whose header names the parent session, emitting `subagent/start` before the child's first prompt
// and `subagent/end` before the parent's tool/result (AL-17). Cancelling the parent cancels the child.
import { type ConfigOf, definePlugin, emitSafely, Schema } from '@tack/kernel'
import type { Agent } from '@tack/agent'
import { lastAssistantText } from '@tack/session'
import { defineTool, registerTool, type ToolAgent, ToolFailure } from '@tack/tools'
import { subagentHost } from './subagent-host.ts'
import { subagentPresentation } from './subagent-present.ts'

export const SubagentConfig = Schema.object({
  maxDepth: Schema.integer({
    min: 0,
    max: 8,
    default: 1,
    description: 'How deep subagents may nest (1: the top-level agent may start children, children may not).',
  }),
})
export type SubagentConfig = ConfigOf<typeof SubagentConfig>

/** A subagent failure with its own result code (MAX_DEPTH, SUBAGENT_FAILED, NO_PARENT). */
export class SubagentError extends ToolFailure {
  override readonly name = 'SubagentError'
}

/**
 * The calling agent as the full `Agent`: the tools pipeline types it minimally (`ToolAgent`), and the
 * loop always hands it a real agent. Anything that cannot be driven (a test stub) counts as none.
 */
function agentOf(agent: ToolAgent | undefined): Agent | undefined {
  const candidate = agent as Partial<Agent> | undefined
  return typeof candidate?.send === 'function' && typeof candidate.cancel === 'function'
    ? (agent as Agent)
    : undefined
}

function depthOf(agent: Agent): number {
  let depth = 0
  for (let a: Agent | undefined = agent; a?.parent; a = a.parent) depth++
  return depth
}

export const SubagentPlugin = definePlugin({
  name: 'subagent',
  Config: SubagentConfig,
  inject: ['agents', 'tools'],
  apply(ctx, config) {
    registerTool(
      ctx,
      defineTool({
        name: 'subagent',
        // The child's own calls are each permissioned; the call itself counts as a write, the
        // riskiest ordinary kind, as it did before tools declared access (0011-tool-declarations.md).
        access: 'write',
        host: subagentHost,
        description:
          'Delegate a self-contained task to a fresh agent with the same tools. It sees only the prompt you give it and answers with its final message.',
        parameters: {
          type: 'object',
          properties: {
            description: { type: 'string', description: 'A few words naming the task (shown to the user).' },
            prompt: { type: 'string', description: 'The complete task for the subagent.' },
          },
          required: ['description', 'prompt'],
        },
        present: subagentPresentation,
        async execute(args, call) {
          const parent = agentOf(call.agent)
          if (!parent) throw new SubagentError('NO_PARENT', 'the subagent tool needs a calling agent')
          if (depthOf(parent) >= config.maxDepth) {
            throw new SubagentError('MAX_DEPTH', `subagents may nest at most ${config.maxDepth} deep`)
          }
          const handle = await ctx.agents.create({
            cwd: parent.cwd,
            options: parent.options,
            parent,
            parentSession: parent.session.id,
          })
          const child = handle.agent
          const cancel = () => child.cancel('parent cancelled')
          try {
            emitSafely(ctx, 'subagent/start', parent, child, { callId: call.callId, task: args.prompt })
            // Sent first, so a cancel that came before (while the child was made, or from a
            // subagent/start listener) reaches a running child: its prompt is dropped, no turn runs.
            const sent = child.send({ content: args.prompt, source: { kind: 'user' } })
            if (call.signal.aborted) cancel()
            else call.signal.addEventListener('abort', cancel, { once: true })
            const outcome = await sent
            const output = lastAssistantText(child.session.events(), { nonEmpty: true })
            emitSafely(ctx, 'subagent/end', parent, child, {
              callId: call.callId,
              reason: outcome.reason,
              ...(output !== undefined ? { output } : {}),
            })
            if (outcome.reason.kind !== 'completed') {
              throw new SubagentError(
                'SUBAGENT_FAILED',
                `the subagent's turn ended ${outcome.reason.kind}${'message' in outcome.reason ? `: ${outcome.reason.message}` : ''}${output ? `\n\nIts last answer:\n${output}` : ''}`,
              )
            }
            return {
              content: output ?? '(the subagent gave no answer)',
              meta: { sessionId: child.session.id },
            }
          } finally {
            call.signal.removeEventListener('abort', cancel)
            await handle.dispose('exit')
          }
        },
      }),
    )
  },
})
