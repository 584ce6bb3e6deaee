// What both web tools declare alike: network access (permissions read it, docs/decisions/0052) and a
// timeout that is a backstop 5 s over the request's own `timeoutMs`, which
// reports itself more precisely.
import type { WebToolsConfig } from './config.ts'

export function webToolHeader<N extends string>(config: WebToolsConfig, name: N, description: string) {
  return {
    name,
    access: 'network' as const,
    description,
    timeoutMs: config.timeoutMs + 5_000,
  }
}
