// Service `ctx.hooksClaude` (40-hooks.md B11, 80-cli.md §7): what plugins and the CLI ask of the bridge.
import type { ListedHandler, HookRegistry, SkipPredicate } from './settings/registry.ts'

export class HooksClaudeService {
  readonly #registry: HookRegistry

  constructor(registry: HookRegistry) {
    this.#registry = registry
  }

  /**
   * A plugin that provides natively what a discovered hook would do asks the bridge to skip it: every
   * handler `predicate` selects (it sees the handler object as written) never runs, is logged once with
   * `reason` and is listed as skipped. Returns an undo (make it the caller's dispose effect).
   */
  skip(predicate: SkipPredicate, reason: string): () => void {
    return this.#registry.skip(predicate, reason)
  }

  /** Every discovered handler for sessions in `workspace` (default the process cwd), whether it runs and why not. */
  list(workspace: string = process.cwd()): ListedHandler[] {
    return this.#registry.list(workspace)
  }

  /** Whether `dir` is a trusted workspace (recorded by `tack trust`), so its project hooks may run. */
  isTrusted(dir: string): boolean {
    return this.#registry.isTrusted(dir)
  }

  /** Hooks files for `workspace` that could not be read; their hooks do not run. */
  problems(workspace: string = process.cwd()) {
    return this.#registry.problems(workspace)
  }
}

declare module 'cordis' {
  interface Context {
    hooksClaude: HooksClaudeService
  }
}
