// An example plugin of your own (docs/decisions/0014-user-plugins.md): a status line writer. After every
// change of an agent's status and every model step it rewrites one line in a file — for a tmux status bar
// or a shell prompt (`cat ~/.tack/status-line`):
//
//   tack · deepseek/deepseek-chat · running · turn 1 · step 2 · 1234 tokens
//
//   plugins:
//     ./examples/status-line.ts: { path: /tmp/tack-status }
import { writeFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import type { Agent } from '@tack/agent'
import { definePlugin, resolveTackHome, Schema } from '@tack/kernel'

export default definePlugin({
  name: 'status-line',
  Config: Schema.object({
    path: Schema.string({
      default: '',
      description: 'The file to write; empty: `$TACK_HOME/status-line`.',
    }),
  }),
  apply(ctx, config) {
    const path = config.path || join(resolveTackHome(process.env, { userHome: homedir() }), 'status-line')
    const write = (agent: Agent, status: string) => {
      let turn = 0
      let steps = 0
      let tokens = 0
      for (const e of agent.session.events()) {
        if (e.type === 'turn/start') {
          turn++
          steps = 0
        } else if (e.type === 'assistant/message') {
          steps++
          const usage = (e.data as { usage?: { inputTokens: number; outputTokens: number } }).usage
          tokens += usage ? usage.inputTokens + usage.outputTokens : 0
        }
      }
      const model = agent.options.config?.model ?? '(default model)'
      writeFileSync(path, `tack · ${model} · ${status} · turn ${turn} · step ${steps} · ${tokens} tokens\n`)
    }
    ctx.on('agent/status', (agent: Agent, status) => {
      if (status !== 'disposed') write(agent, status)
    })
    ctx.on('agent/pre-step', (agent: Agent) => write(agent, 'running'))
  },
})
