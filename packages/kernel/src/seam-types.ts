// How a seam's listener is declared in `interface Events` when the seam is a waterfall. The contract is
// written here once, so a seam's declaration says only what is its own: its arguments and its result.

/**
 * The listener of a waterfall seam: middleware `(…args, next)`. Calling `next()` delegates to the rest
 * of the chain (at its end, the seam's built-in behaviour) and resolves to what it answered; the listener
 * may return that, or change it. Returning without calling `next()` answers for everything downstream,
 * the built-in behaviour included (spec 00-overview.md, decision 2).
 *
 * - `Args`: what the firing side passes, as a labelled tuple (`[agent: Agent, request: CommandRequest]`).
 * - `R`: what a listener returns.
 * - `NextArgs`: what `next` accepts, where the seam lets a listener replace the arguments
 *   (`tools/execute`'s `next(exec?)`); by default nothing.
 * - `NextR`: what `next()` resolves to, where it differs from `R` (`tools/call` may answer with a
 *   `ToolAnswer`, while `next()` gives the full `ToolExecutionResult`); by default `R`.
 *
 * Declared as a property of `Events`:
 * `'ui/command': Waterfall<[agent: Agent, request: CommandRequest], CommandResult>`.
 */
export type Waterfall<Args extends unknown[], R, NextArgs extends unknown[] = [], NextR = R> = (
  ...args: [...Args, next: (...args: NextArgs) => Promise<NextR>]
) => R | Promise<R>
