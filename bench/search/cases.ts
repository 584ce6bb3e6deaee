// What P9 times: each `grep` output mode and `glob`, as the tool call and as the rg command a person
// would type for the same answer. Like with like: rg gets the tool's file rules (dot files included,
// `.gitignore` honoured outside a git repository, `.git` skipped) and the tool's cost of its promised
// path order is inside the tool's time, while rg runs unsorted on all its threads (its fastest; `--sort
// path` would make it single-threaded). Each case also says how to read both answers as one sorted
// list of lines, and the run checks they are equal, so both did the same work.
import { LITERAL } from './tree.ts'

export interface SearchCase {
  readonly what: string
  readonly tool: { readonly name: 'grep' | 'glob'; readonly args: Record<string, unknown> }
  readonly rg: readonly string[]
  /** Run the tool with the permissions plugin denying `**​/.env*` (its withheld files left out and
   * counted, docs/decisions/0118-deny-rules-in-search-results.md); rg is told to skip them. */
  readonly deny?: boolean
}

/** The tool's file rules, spelled as rg flags (docs/decisions/0040-ripgrep-search.md). */
const RULES = ['--hidden', '--no-require-git', '--glob=!.git']

export const CASES: readonly SearchCase[] = [
  {
    what: 'grep files',
    tool: { name: 'grep', args: { pattern: LITERAL } },
    rg: ['--files-with-matches', ...RULES, '-F', LITERAL],
  },
  {
    what: 'grep content',
    tool: { name: 'grep', args: { pattern: LITERAL, output: 'content' } },
    rg: ['--line-number', '--with-filename', '--no-heading', ...RULES, '-F', LITERAL],
  },
  {
    what: 'grep count',
    tool: { name: 'grep', args: { pattern: LITERAL, output: 'count' } },
    rg: ['--count', '--with-filename', ...RULES, '-F', LITERAL],
  },
  {
    what: 'grep files, deny rule',
    tool: { name: 'grep', args: { pattern: LITERAL } },
    rg: ['--files-with-matches', ...RULES, '--glob=!.env*', '-F', LITERAL],
    deny: true,
  },
  {
    what: 'glob **/*.d.ts',
    tool: { name: 'glob', args: { pattern: '**/*.d.ts' } },
    rg: ['--files', ...RULES, '--glob=*.d.ts'],
  },
]

/** An answer as its sorted lines, without the withheld-files note (any other note would make the check fail). */
export function answerLines(text: string): string[] {
  return text
    .split('\n')
    .filter((line) => line !== '' && !/^\[\d+ files? withheld by permission deny rules/.test(line))
    .sort()
}
