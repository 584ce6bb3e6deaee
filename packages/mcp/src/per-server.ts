// What a connected server registered in tack (its tools, its prompts' commands), by server, so a new list
// from that server withdraws the old registrations first and `/mcp` can count them.
import type { Context } from 'cordis'

export abstract class PerServerRegistrations {
  protected readonly ctx: Context
  protected readonly warn: (line: string) => void
  readonly #registered = new Map<string, Array<() => void>>()

  constructor(ctx: Context, warn: (line: string) => void) {
    this.ctx = ctx
    this.warn = warn
  }

  /** How many of `server`'s are registered now. */
  count(server: string): number {
    return this.#registered.get(server)?.length ?? 0
  }

  /** Withdraws every server's registrations. */
  clear(): void {
    for (const server of [...this.#registered.keys()]) this.withdraw(server)
  }

  /** Withdraws `server`'s registrations. */
  protected withdraw(server: string): void {
    for (const dispose of this.#registered.get(server) ?? []) dispose()
    this.#registered.delete(server)
  }

  /** Keeps `disposers` as `server`'s registrations (after `withdraw`). */
  protected keep(server: string, disposers: Array<() => void>): void {
    this.#registered.set(server, disposers)
  }
}
