// TuiPlugin: what the interactive UI needs inside tack's kernel — it answers `ask` decisions
// (`ctx.approval`) with the screen's permission prompt, and tells the screen when a call's body starts
// (`tools/execute`), which the log does not record. The screen attaches itself with `attach`; until it
// does, and after it leaves, an ask is denied (nobody is there to answer).
import { definePlugin } from '@tack/kernel'
import type { ApprovalAnswer, ApprovalRequest, ToolExecution, ToolExecutionResult } from '@tack/tools'
import { TuiConfig } from './config.ts'

// The catalog imports this module alone (`@tack/tui/plugin`) to check a config's `plugins.tui`: it
// must stay free of the screen (pi-tui, the app), which only `tack`'s interactive mode loads.
export { TuiConfig }

export interface TuiScreen {
  approve(req: ApprovalRequest): Promise<ApprovalAnswer>
  /** The screen's remembered "for this session" answer for a call, if any. */
  remembered(req: Omit<ApprovalRequest, 'signal'>): ApprovalAnswer | undefined
  started(exec: ToolExecution): void
}

export class TuiService {
  readonly config: TuiConfig
  #screen: TuiScreen | undefined

  constructor(config: TuiConfig) {
    this.config = config
  }

  attach(screen: TuiScreen): () => void {
    this.#screen = screen
    return () => {
      if (this.#screen === screen) this.#screen = undefined
    }
  }

  get screen(): TuiScreen | undefined {
    return this.#screen
  }
}

export const TuiPlugin = definePlugin({
  name: 'tui',
  Config: TuiConfig,
  inject: ['tools'],
  apply(ctx, config) {
    const service = new TuiService(config)
    ctx.provide('tui', service)
    ctx.provide('approval', {
      request: async (req: ApprovalRequest): Promise<ApprovalAnswer> => {
        const screen = service.screen
        if (!screen) return { action: 'deny', by: 'none', reason: 'No one is at the terminal to ask.' }
        return screen.approve(req)
      },
      remembered: (req: Omit<ApprovalRequest, 'signal'>) => service.screen?.remembered(req),
    })
    ctx.on(
      'tools/execute',
      async (exec: ToolExecution, next: (exec?: ToolExecution) => Promise<ToolExecutionResult>) => {
        service.screen?.started(exec)
        return next()
      },
    )
  },
})

declare module 'cordis' {
  interface Context {
    tui: TuiService
  }
}
