// The pi host (`agent-dice/pi`): a pi coding-agent extension. On pi's end-of-run event (`agent_end`,
// pi's Stop) it checks every slot with depth = the user messages on the session's current branch,
// and delivers a hit as a custom message that rides into the next turn (pi's `nextTurn` delivery,
// as the public version's pi host did). A genuinely new session (`startup`, `new`) clears slots;
// `resume`, `reload` and `fork` continue the same logical session. Files are the same formats as
// every other host, under pi's agent folder (`$PI_CODING_AGENT_DIR/dice`, default `~/.pi/agent/dice`).
// `/dice …` runs the agent-dice CLI against that folder and this session.
import type { ExtensionAPI, ExtensionContext } from '@mariozechner/pi-coding-agent'
import { runCheck, sessionStart } from '../core/engine.ts'
import { renderTriggers } from '../core/render.ts'
import { runCli } from '../cli/run.ts'
import { type HostEnvironment, isDebug, resolveBase } from '../host/env.ts'
import { FileDiceStore } from '../store/file-store.ts'
import { tokenize } from './tokenize.ts'

/** The custom message type of a nudge (pi renders it; the model receives its content). */
export const PI_MESSAGE_TYPE = 'agent-dice'

export interface PiExtensionOptions {
  /** Process facts (default: this process). */
  environment?: HostEnvironment
  rng?: () => number
}

/** Depth on pi: user messages on the current branch (tool results and our own messages are not). */
export function piDepth(ctx: Pick<ExtensionContext, 'sessionManager'>): number {
  return ctx.sessionManager
    .getBranch()
    .filter((entry) => entry.type === 'message' && (entry.message as { role?: string }).role === 'user')
    .length
}

/** Builds the extension; the default export uses this process's environment. */
export function createPiExtension(options: PiExtensionOptions = {}): (pi: ExtensionAPI) => void {
  return (pi) => {
    const environment = () => options.environment ?? { env: process.env, cwd: process.cwd() }
    const store = () =>
      new FileDiceStore(resolveBase('pi', environment()), options.rng ? { rng: options.rng } : {})
    const failOpen = (where: string, error: unknown) => {
      if (isDebug(environment().env)) console.error(`[agent-dice:${where}]`, error)
    }

    pi.on('session_start', async (event, ctx) => {
      if (event.reason !== 'startup' && event.reason !== 'new') return
      try {
        await sessionStart(store(), { sessionId: ctx.sessionManager.getSessionId() })
      } catch (error) {
        failOpen('session_start', error)
      }
    })

    pi.on('agent_end', async (_event, ctx) => {
      try {
        const depth = piDepth(ctx)
        const { results, slots } = await runCheck(store(), {
          sessionId: ctx.sessionManager.getSessionId(),
          getCurrentDepth: async () => depth,
        })
        const text = renderTriggers(results, slots)
        if (text)
          pi.sendMessage(
            { customType: PI_MESSAGE_TYPE, content: text, display: true },
            { deliverAs: 'nextTurn' },
          )
      } catch (error) {
        failOpen('agent_end', error)
      }
    })

    pi.registerCommand('dice', {
      description: 'agent-dice: register, list, status, roll, reset, clear, odds, unregister',
      handler: async (args, ctx) => {
        let out = ''
        let err = ''
        const e = environment()
        const code = await runCli(tokenize(args), {
          env: e.env,
          cwd: e.cwd,
          home: e.home,
          rng: options.rng,
          stdout: (t) => {
            out += t
          },
          stderr: (t) => {
            err += t
          },
          host: {
            kind: 'pi',
            base: resolveBase('pi', e),
            sessionId: ctx.sessionManager.getSessionId(),
            depth: () => piDepth(ctx),
          },
        })
        const text = `${out}${err}`.trimEnd()
        if (text) ctx.ui.notify(text, code === 0 ? 'info' : 'error')
      },
    })
  }
}

export default createPiExtension()
