// How `grep` looks to Claude Code's hooks (docs/decisions/0210-host-protocol-packages.md): its `Grep`,
// with `ignore_case` as `-i` and `output` as `output_mode` (`files` is `files_with_matches`). Claude's
// options grep has no counterpart for are dropped from an `updatedInput`.
import { argumentsFromClaudeInput, type ClaudeToolMapping, claudeDefined } from '@tack/claude-protocol'
import { isJsonObject } from '@tack/tools'

const MODE_TO_CLAUDE: Readonly<Record<string, string>> = {
  files: 'files_with_matches',
  content: 'content',
  count: 'count',
}
const MODE_FROM_CLAUDE: Readonly<Record<string, string>> = {
  files_with_matches: 'files',
  content: 'content',
  count: 'count',
}

export const grepHost: { readonly claude: ClaudeToolMapping } = {
  claude: {
    name: 'Grep',
    toInput(args) {
      const a = isJsonObject(args) ? args : {}
      return claudeDefined({
        pattern: a.pattern,
        path: a.path,
        glob: a.glob,
        '-i': a.ignore_case,
        output_mode: typeof a.output === 'string' ? (MODE_TO_CLAUDE[a.output] ?? a.output) : a.output,
      })
    },
    fromInput: (input) =>
      argumentsFromClaudeInput(input, {
        rename: { '-i': 'ignore_case', output_mode: 'output' },
        drop: ['multiline', '-n', '-A', '-B', '-C', 'head_limit', 'type'],
        values: { output: MODE_FROM_CLAUDE },
      }),
  },
}
