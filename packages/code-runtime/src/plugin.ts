// The plugin mounting `ctx.codeRuntime` (TL-30), with the run budgets as validated Config.
import { type ConfigOf, definePlugin, Schema } from '@tack/kernel'
import type { CodeRunOutcome, CodeRunRequest, CodeRuntime } from '@tack/tools'
import { Service, type Context } from 'cordis'

/** setTimeout's ceiling: a longer wall budget would fire at once. */
const MAX_TIMER_MS = 2_147_483_647

export const CodeRuntimeConfig = Schema.object({
  computeMs: Schema.integer({
    default: 60_000,
    min: 1,
    max: MAX_TIMER_MS,
    description:
      "Milliseconds of guest execution a Code Mode program may use (waits on tools are not counted); past it the run fails `timeout`. Enforced by QuickJS's interrupt handler, so `while (true) {}` stops too.",
  }),
  maxWallMs: Schema.integer({
    default: 600_000,
    min: 1,
    max: MAX_TIMER_MS,
    description:
      'Milliseconds a Code Mode run may take in all, tool waits included; past it the run fails `timeout`.',
  }),
  memoryBytes: Schema.integer({
    default: 268_435_456,
    min: 1_048_576,
    max: 4_294_967_296,
    description:
      "The QuickJS runtime's memory limit in bytes for one run; an allocation past it fails the run `memory`.",
  }),
  maxLogBytes: Schema.integer({
    default: 64_000,
    min: 1_024,
    max: 64 * 1024 * 1024,
    description:
      "Bytes of a run's captured console output kept (the rest is cut with a note); the returned value's JSON and a failed run's error text are cut at the same size, with a note naming the full length.",
  }),
  stopGraceMs: Schema.integer({
    default: 1_000,
    min: 0,
    max: 60_000,
    description:
      "Milliseconds an aborted Code Mode program may take to stop at QuickJS's next interrupt check before its worker thread is terminated (a single long built-in call, such as a huge `Array.prototype.fill`, is not interruptible); the run fails `aborted` either way.",
  }),
})
export type CodeRuntimeConfig = ConfigOf<typeof CodeRuntimeConfig>

export class QuickJSCodeRuntime extends Service implements CodeRuntime {
  readonly language = 'typescript'
  readonly config: CodeRuntimeConfig

  constructor(ctx: Context, config: CodeRuntimeConfig) {
    super(ctx, 'codeRuntime')
    this.config = config
  }

  // The worker thread (and QuickJS in it) starts on first use: `tack run` in native mode loads this
  // plugin but never pays for it.
  async run(request: CodeRunRequest): Promise<CodeRunOutcome> {
    const { runInWorker } = await import('./sandbox-worker.ts')
    const { stopGraceMs, ...budgets } = this.config
    return runInWorker(request, { ...budgets, ...request.budgets }, { stopGraceMs })
  }

  /** Starts the worker, compiles the WebAssembly and prepares an isolate now, so the first run starts warm. */
  warm(): void {
    void import('./sandbox-worker.ts').then(({ warmWorker }) => warmWorker(this.config.memoryBytes))
  }
}

/** The plugin providing `ctx.codeRuntime`. */
export const CodeRuntimePlugin = definePlugin({
  name: 'code-runtime',
  Config: CodeRuntimeConfig,
  apply(ctx, config) {
    new QuickJSCodeRuntime(ctx, config)
  },
})
