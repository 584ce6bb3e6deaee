// The arguments of `/mcp__<server>__<prompt> a b "c d"` (spec 55-mcp.md M10): words split on whitespace,
// a double-quoted group is one word, and they fill the prompt's declared arguments in order. More words
// than arguments: the rest join the last one, so a prompt of one argument takes a whole sentence.
import type { PromptArgument } from '@modelcontextprotocol/sdk/types.js'

export type PromptArgs =
  | { readonly ok: true; readonly values: Record<string, string> }
  | { readonly ok: false; readonly message: string }

export function promptArguments(text: string, declared: readonly PromptArgument[]): PromptArgs {
  const words = splitWords(text)
  const values: Record<string, string> = {}
  declared.forEach((arg, i) => {
    const last = i === declared.length - 1
    const value = last ? words.slice(i).join(' ') : words[i]
    if (value !== undefined && value !== '') values[arg.name] = value
  })
  const missing = declared.filter((a) => a.required === true && values[a.name] === undefined)
  if (missing.length > 0)
    return {
      ok: false,
      message: `missing ${missing.map((a) => a.name).join(', ')} (arguments in order: ${usage(declared)})`,
    }
  if (declared.length === 0 && words.length > 0)
    return { ok: false, message: 'this prompt takes no arguments' }
  return { ok: true, values }
}

/** `<city> [state]`: required arguments in angle brackets, optional ones in square brackets. */
export function usage(declared: readonly PromptArgument[]): string {
  return declared.map((a) => (a.required === true ? `<${a.name}>` : `[${a.name}]`)).join(' ')
}

function splitWords(text: string): string[] {
  const words: string[] = []
  for (const m of text.matchAll(/"([^"]*)"|(\S+)/g)) words.push(m[1] ?? m[2] ?? '')
  return words
}
