// The `run_code` tool (TL-23, TL-29): hands the program and one binding per tool to `ctx.codeRuntime`,
// routes every binding through the dispatch bridge, and turns the outcome into a result — console
// output then the returned value's JSON — or a `CodeRunFailedError`. Its own access is `session`: it
// does nothing by itself, and each sub-call is judged by its own tool's declaration.
import type { Context } from 'cordis'
import { defineTool } from '../define-tool.ts'
import { CodeModeUnavailableError, CodeRunFailedError } from '../errors.ts'
import type { ToolAgent, ToolDefinition, ToolRegistry } from '../types.ts'
import { CodeDispatch } from './dispatch.ts'
import type { CodeRunOutcome, CodeRuntime } from './runtime.ts'
import { RUN_CODE } from './sdk.ts'
import { sdkLayout } from './sdk-layout.ts'
import { runCodePresentation } from './run-code-present.ts'

export interface RunCodeEnv {
  /** Where `codeRuntime` is looked up at call time. */
  readonly home: Context
  readonly tools: Pick<ToolRegistry, 'execute'>
  /** The tools the program may call: every registered tool offered to the agent but run_code, sorted. */
  readonly toolDefinitions: (agent: ToolAgent | undefined) => readonly ToolDefinition[]
  readonly summaryMaxChars: number
  readonly argumentsMaxChars: number
  readonly mode: string
}

/** `ctx.codeRuntime` when one for TypeScript is mounted (TL-20). */
export function typescriptRuntime(home: Context): CodeRuntime | undefined {
  const runtime = home.get('codeRuntime') as CodeRuntime | undefined
  return runtime?.language === 'typescript' ? runtime : undefined
}

export function runCodeTool(env: RunCodeEnv): ToolDefinition {
  const tool = defineTool({
    name: RUN_CODE,
    description:
      'Run a TypeScript program against the `tools` API declared in the system prompt (Code Mode). The result is the console output followed by the JSON of the returned value.',
    parameters: {
      type: 'object',
      properties: {
        code: {
          type: 'string',
          minLength: 1,
          description: 'The program: the body of an async function (top-level await and return allowed).',
        },
      },
      required: ['code'],
    },
    access: 'session',
    async execute({ code }, call) {
      const runtime = typescriptRuntime(env.home)
      if (!runtime) throw new CodeModeUnavailableError(env.mode)
      const dispatch = new CodeDispatch({
        tools: env.tools,
        parent: call,
        summaryMaxChars: env.summaryMaxChars,
        argumentsMaxChars: env.argumentsMaxChars,
      })
      let outcome: CodeRunOutcome
      try {
        // The layout the SDK section declared (sdk-layout.ts): each binding at its place in `tools`.
        const layout = sdkLayout(env.toolDefinitions(call.agent))
        const bindings = Object.fromEntries(layout.map(({ def }) => [def.name, dispatch.binding(def.name)]))
        const places = Object.fromEntries(layout.map(({ def, place }) => [def.name, place]))
        outcome = await runtime.run({ code, bindings, places, signal: dispatch.signal })
      } finally {
        // TL-28: nothing is dispatched after this, and the last dispatch event precedes our result.
        await dispatch.close()
      }
      if (!outcome.ok) throw new CodeRunFailedError(outcome.kind, outcome.message, outcome.logs)
      return { content: resultText(outcome.logs, outcome.returned), meta: { subCalls: dispatch.dispatched } }
    },
    present: runCodePresentation,
  })
  return tool as ToolDefinition
}

function resultText(logs: string, returned: string | undefined): string {
  const parts = [logs, returned ?? ''].filter((part) => part !== '')
  return parts.length ? parts.join('\n') : '(the program printed nothing and returned nothing)'
}
