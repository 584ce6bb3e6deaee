// The model a command will use must be served (a provider with its key, an endpoint, the scripted
// provider): checked once after boot, as one clear line, before any session starts. The line's cause is
// an LlmError with the code the provider would raise at a request (`MISSING_API_KEY`, …), so a caller
// that must tell a missing key from a wrong model (the fleet's worker) keys off the code, not the text.
import { LlmError } from '@tack/agent'
import { type LlmProviders, modelProblemCode } from '@tack/llm'
import type { Context } from 'cordis'
import { CliError } from './errors.ts'

export function assertModelServed(ctx: Context, model: string): void {
  let problem: string | undefined
  let cause: unknown
  try {
    // `get`, not the property: a plugin's context (the /model command's) does not inject llmProviders.
    const resolved = (ctx.get('llmProviders') as LlmProviders).resolve(model)
    problem = resolved.problem
    const code = modelProblemCode(resolved)
    if (problem && code) cause = new LlmError(`${model}: ${problem}`, { code, transient: false })
  } catch (error) {
    problem = (error as Error).message
    cause = error
  }
  if (problem) throw new CliError(`${model}: ${problem}`, cause === undefined ? undefined : { cause })
}
