// The model a command will use must be served (a provider with its key, an endpoint, the scripted
// provider): checked once after boot, as one clear line, before any session starts.
import type { LlmProviders } from '@tack/llm'
import type { Context } from 'cordis'
import { CliError } from './errors.ts'

export function assertModelServed(ctx: Context, model: string): void {
  let problem: string | undefined
  try {
    // `get`, not the property: a plugin's context (the /model command's) does not inject llmProviders.
    problem = (ctx.get('llmProviders') as LlmProviders).resolve(model).problem
  } catch (error) {
    problem = (error as Error).message
  }
  if (problem) throw new CliError(`${model}: ${problem}`)
}
