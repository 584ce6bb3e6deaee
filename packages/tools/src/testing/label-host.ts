// How Claude Code's hooks see the `label` tool (label-tool.ts): the tool `Label`, whose input is
// `{path (absolute), text}` and whose response is `{labelled, ok}`.
import { resolve } from 'node:path'
import { isJsonObject } from '../arguments.ts'
import type { ToolHosts } from '../host.ts'

export const labelHost: ToolHosts = {
  claude: {
    name: 'Label',
    toInput(args: unknown, cwd: string) {
      const a = isJsonObject(args) ? args : {}
      return { path: typeof a.target === 'string' ? resolve(cwd, a.target) : a.target, text: a.words }
    },
    fromInput: (input: Readonly<Record<string, unknown>>) => ({ target: input.path, words: input.text }),
    toResponse: (args: unknown, result: { readonly isError: boolean }) => ({
      labelled: isJsonObject(args) ? args.target : undefined,
      ok: !result.isError,
    }),
  },
}
