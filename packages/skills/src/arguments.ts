// Arguments in a skill or command body, as Claude Code substitutes them (85-skills-and-commands.md K4,
// C2): `$ARGUMENTS` is the raw text after the name; `$ARGUMENTS[N]` and `$N` are its shell-style words,
// counted from 0 (quotes group words and are removed); a placeholder past the last word stays as written.
// A body with no placeholder at all gets `ARGUMENTS: <text>` appended, so arguments are never lost.

/** Shell-style words: blanks separate, '…' and "…" group (and are removed), `\` escapes outside '…'. */
export function argumentWords(raw: string): string[] {
  const words: string[] = []
  let word = ''
  let inWord = false
  let quote: '"' | "'" | undefined
  for (let i = 0; i < raw.length; i++) {
    const ch = raw[i] as string
    if (quote) {
      if (ch === quote) quote = undefined
      else if (ch === '\\' && quote === '"' && (raw[i + 1] === '"' || raw[i + 1] === '\\')) word += raw[++i]
      else word += ch
      continue
    }
    if (ch === '"' || ch === "'") {
      quote = ch
      inWord = true
    } else if (ch === '\\' && i + 1 < raw.length) {
      word += raw[++i]
      inWord = true
    } else if (/\s/.test(ch)) {
      if (inWord) words.push(word)
      word = ''
      inWord = false
    } else {
      word += ch
      inWord = true
    }
  }
  // An unclosed quote keeps what it held: the person's text is not lost for a missing quote.
  if (inWord) words.push(word)
  return words
}

const PLACEHOLDER = /\$ARGUMENTS\[(\d+)\]|\$ARGUMENTS(?![A-Za-z0-9_[])|\$(\d+)(?![0-9])/g

/** Whether `body` names its arguments anywhere (then nothing is appended). */
export function hasArgumentPlaceholder(body: string): boolean {
  PLACEHOLDER.lastIndex = 0
  return PLACEHOLDER.test(body)
}

export interface SubstituteOptions {
  /** Append `ARGUMENTS: <raw>` when the body has no placeholder and there are arguments (default true). */
  readonly appendWhenUnused?: boolean
}

/** `body` with its argument placeholders filled from `raw`. */
export function substituteArguments(body: string, raw: string, options: SubstituteOptions = {}): string {
  const args = raw.trim()
  const used = hasArgumentPlaceholder(body)
  const words = argumentWords(args)
  const filled = used
    ? body.replace(PLACEHOLDER, (whole, indexed: string | undefined, positional: string | undefined) => {
        const n = indexed ?? positional
        if (n === undefined) return args
        const word = words[Number(n)]
        return word === undefined ? whole : word
      })
    : body
  if (used || !args || options.appendWhenUnused === false) return filled
  return `${filled.replace(/\s+$/, '')}\n\nARGUMENTS: ${args}`
}

/** `${CLAUDE_SKILL_DIR}` and `${TACK_SKILL_DIR}` → the skill's folder (K4). */
export function substituteSkillDir(body: string, dir: string): string {
  return body.replace(/\$\{(?:CLAUDE|TACK)_SKILL_DIR\}/g, () => dir)
}
