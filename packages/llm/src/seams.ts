// The seam `@tack/llm` fires, declared as a typed cordis event (`docs/seams.md` is generated from it).
import type { RetryInfo } from './retry.ts'

declare module 'cordis' {
  interface Events {
    /** @mode emit — `@tack/llm` retries a transient failure; not logged (nothing model-visible changes). */
    'llm/retry'(info: RetryInfo): void
  }
}
