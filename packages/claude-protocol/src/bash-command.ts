// Claude Code's reading of a Bash command line: its subcommands, for `if` rules (40-hooks.md B6) and for
// the Bash `tool_response`'s `noOutputExpected`. Not a full shell parser: enough to find every command a
// rule could name.
/**
 * The subcommands of a bash command line, or undefined when it cannot be parsed (unbalanced quotes or
 * substitutions). Not a full shell parser: enough to find every command a rule could name.
 */
export function bashParts(command: string): string[] | undefined {
  const parts: string[] = []
  const pending: string[] = [command]
  while (pending.length > 0) {
    const split = splitTopLevel(pending.pop()!, pending)
    if (!split) return undefined
    parts.push(...split.map((s) => s.text))
  }
  return parts.map(stripAssignments).filter((p) => p !== '')
}

/** One top-level command of a command line, as written, and the operator before it (`''` for the first). */
export interface BashSegment {
  readonly text: string
  /** `&&`, `||`, `|`, `;`, `&`, a newline, …; `''` for the first segment. */
  readonly operatorBefore: string
}

/**
 * The top-level commands of a command line with the operator before each (substitutions stay inside
 * their command), or undefined when it cannot be parsed.
 */
export function bashSegments(command: string): BashSegment[] | undefined {
  return splitTopLevel(command, [])
}

/** Splits on unquoted operators; pushes the insides of `$(…)` and backticks onto `nested`. */
function splitTopLevel(text: string, nested: string[]): BashSegment[] | undefined {
  const parts: BashSegment[] = []
  let current = ''
  let operator = ''
  let i = 0
  const cut = () => {
    parts.push({ text: current.trim(), operatorBefore: operator })
    current = ''
  }
  while (i < text.length) {
    const c = text[i]
    if (c === '\\') {
      current += text.slice(i, i + 2)
      i += 2
    } else if (c === "'") {
      const close = text.indexOf("'", i + 1)
      if (close < 0) return undefined
      current += text.slice(i, close + 1)
      i = close + 1
    } else if (c === '"') {
      const end = scanDouble(text, i + 1, nested)
      if (end < 0) return undefined
      current += text.slice(i, end + 1)
      i = end + 1
    } else if (c === '`') {
      const close = text.indexOf('`', i + 1)
      if (close < 0) return undefined
      nested.push(text.slice(i + 1, close))
      current += text.slice(i, close + 1)
      i = close + 1
    } else if (c === '$' && text[i + 1] === '(') {
      const close = matchParen(text, i + 2)
      if (close < 0) return undefined
      nested.push(text.slice(i + 2, close))
      current += text.slice(i, close + 1)
      i = close + 1
    } else if (c === ';' || c === '\n' || c === '|' || c === '&') {
      // `&&`, `||`, `|&`, `;;` and single operators all end a command; `>&`/`&>` redirections do not.
      // `>|` (write even under noclobber) is a redirection too, not a pipe.
      if ((c === '&' && (text[i - 1] === '>' || text[i + 1] === '>')) || (c === '|' && text[i - 1] === '>')) {
        current += c
        i++
        continue
      }
      cut()
      const start = i
      i++
      while (i < text.length && (text[i] === '&' || text[i] === '|' || text[i] === ';')) i++
      operator = text.slice(start, i)
    } else {
      current += c
      i++
    }
  }
  cut()
  return parts
}

function scanDouble(text: string, from: number, nested: string[]): number {
  let i = from
  while (i < text.length) {
    const c = text[i]
    if (c === '\\') i += 2
    else if (c === '"') return i
    else if (c === '`') {
      const close = text.indexOf('`', i + 1)
      if (close < 0) return -1
      nested.push(text.slice(i + 1, close))
      i = close + 1
    } else if (c === '$' && text[i + 1] === '(') {
      const close = matchParen(text, i + 2)
      if (close < 0) return -1
      nested.push(text.slice(i + 2, close))
      i = close + 1
    } else i++
  }
  return -1
}

/** The index of the `)` closing a `$(` whose body starts at `from`, skipping quoted text. */
function matchParen(text: string, from: number): number {
  let depth = 1
  let i = from
  while (i < text.length) {
    const c = text[i]
    if (c === '\\') i += 2
    else if (c === "'") {
      const close = text.indexOf("'", i + 1)
      if (close < 0) return -1
      i = close + 1
    } else if (c === '"') {
      const close = scanDouble(text, i + 1, [])
      if (close < 0) return -1
      i = close + 1
    } else {
      if (c === '(') depth++
      else if (c === ')' && --depth === 0) return i
      i++
    }
  }
  return -1
}

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=(?:'[^']*'|"(?:\\.|[^"\\])*"|[^\s'"]*)\s+/

function stripAssignments(part: string): string {
  // Grouping characters around a command (`(cd x && make)`, `{ a; }`) are not part of it.
  let p = part
    .trim()
    .replace(/^[({\s]+/, '')
    .replace(/[)}\s]+$/, '')
  for (let m = ASSIGNMENT.exec(p); m; m = ASSIGNMENT.exec(p)) p = p.slice(m[0].length)
  return p.trim()
}
