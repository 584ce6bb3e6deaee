// Where a JSON text stops being JSON (40-hooks.md B1/C1, issue 9 item 8): `JSON.parse` says only
// "Unexpected token" without a position on current V8, so a broken `.claude/settings.json` or
// `.codex/hooks.json` would be reported without telling the user where to look. This scanner follows
// JSON's grammar (RFC 8259, as `JSON.parse` accepts it) and reports the first offending character as
// a 1-based line and column.

export interface JsonSyntaxProblem {
  readonly line: number
  readonly column: number
  /** What was expected or found there, e.g. `expected a value, found ","`. */
  readonly detail: string
}

class Stop extends Error {
  readonly at: number
  readonly detail: string
  constructor(at: number, detail: string) {
    super(detail)
    this.at = at
    this.detail = detail
  }
}

/** The first syntax problem of `text`, or undefined when it parses. */
export function findJsonSyntaxProblem(text: string): JsonSyntaxProblem | undefined {
  let i = 0
  const found = () => (i >= text.length ? 'the end of the file' : JSON.stringify(text[i]))
  const fail = (expected: string): never => {
    throw new Stop(i, `expected ${expected}, found ${found()}`)
  }
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i])) i++
  }
  const literal = (word: string) => {
    for (const ch of word) {
      if (text[i] !== ch) fail(`"${word}"`)
      i++
    }
  }
  const string = () => {
    i++ // the opening quote
    for (;;) {
      if (i >= text.length) fail('a closing quote')
      const ch = text[i]
      if (ch === '"') {
        i++
        return
      }
      if (ch.charCodeAt(0) < 0x20) fail('no control character inside a string (escape it)')
      if (ch === '\\') {
        i++
        const esc = text[i]
        if (esc === 'u') {
          for (let k = 1; k <= 4; k++) {
            i++
            if (!/[0-9a-fA-F]/.test(text[i] ?? '')) fail('four hex digits after \\u')
          }
        } else if (!'"\\/bfnrt'.includes(esc ?? 'x')) fail('an escape (\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u)')
      }
      i++
    }
  }
  const digits = (what: string) => {
    if (!/[0-9]/.test(text[i] ?? '')) fail(what)
    while (/[0-9]/.test(text[i] ?? '')) i++
  }
  const number = () => {
    if (text[i] === '-') i++
    if (text[i] === '0') i++
    else digits('a digit')
    if (text[i] === '.') {
      i++
      digits('a digit after the decimal point')
    }
    if (text[i] === 'e' || text[i] === 'E') {
      i++
      if (text[i] === '+' || text[i] === '-') i++
      digits('a digit in the exponent')
    }
  }
  /** An object's `"name": value`. */
  const member = () => {
    ws()
    if (text[i] !== '"') fail('a property name in double quotes')
    string()
    ws()
    if (text[i] !== ':') fail('":"')
    i++
    value()
  }
  /** `{…}` or `[…]` from its opening bracket: empty, or items separated by commas. */
  const container = (close: '}' | ']', item: () => void) => {
    i++
    ws()
    if (text[i] === close) {
      i++
      return
    }
    for (;;) {
      item()
      ws()
      if (text[i] === ',') {
        i++
        continue
      }
      if (text[i] === close) {
        i++
        return
      }
      fail(`"," or "${close}"`)
    }
  }
  const value = (): void => {
    ws()
    const ch = text[i]
    if (ch === '{') container('}', member)
    else if (ch === '[') container(']', value)
    else if (ch === '"') string()
    else if (ch === 't') literal('true')
    else if (ch === 'f') literal('false')
    else if (ch === 'n') literal('null')
    else if (ch === '-' || /[0-9]/.test(ch ?? '')) number()
    else fail('a value')
  }
  try {
    value()
    ws()
    if (i < text.length) fail('the end of the file')
    return undefined
  } catch (error) {
    if (!(error instanceof Stop)) throw error
    return { ...lineColumn(text, error.at), detail: error.detail }
  }
}

function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1
  let start = 0
  for (let k = 0; k < offset && k < text.length; k++) {
    if (text[k] === '\n') {
      line++
      start = k + 1
    }
  }
  return { line, column: Math.min(offset, text.length) - start + 1 }
}

/** `line L, column C: <detail>` for a text `JSON.parse` rejected (falls back to the parser's message). */
export function describeJsonError(text: string, error: unknown): string {
  const problem = findJsonSyntaxProblem(text)
  if (problem) return `invalid JSON at line ${problem.line}, column ${problem.column}: ${problem.detail}`
  return `invalid JSON: ${error instanceof Error ? error.message : String(error)}`
}
