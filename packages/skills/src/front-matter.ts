// YAML front matter of SKILL.md and prompt command files (85-skills-and-commands.md K1, C2). The files
// are the ones people publish for Claude Code and Codex, so reading is forgiving where those agents are:
// unknown keys are kept, `allowed-tools` may be a list or one string, a file without front matter is all
// body. What cannot be read is a warning naming the file and the key, never a thrown error.
import { parseDocument } from 'yaml'
import type { KnowHowWarning } from './types.ts'

export interface FrontMatter {
  /** The mapping at the top of the file; empty when there is none or it could not be read. */
  readonly data: Readonly<Record<string, unknown>>
  /** The text after the closing `---` (the whole file when there is no front matter). */
  readonly body: string
  /** Present when the front matter was there but was not a readable YAML mapping. */
  readonly warning?: KnowHowWarning
}

/** Opens with `---` on the first line (after a BOM), closes with a line of `---` (or `...`). */
const FENCE = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)^(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/m

export function parseFrontMatter(text: string, file: string): FrontMatter {
  const match = FENCE.exec(text)
  if (match?.index !== 0) return { data: {}, body: stripBom(text) }
  const body = text.slice(match[0].length)
  const doc = parseDocument(match[1] ?? '', { uniqueKeys: false, prettyErrors: true })
  const error = doc.errors[0]
  if (error) {
    // Lines count from the file's first line: the YAML starts on line 2.
    const line = error.linePos?.[0]?.line
    return {
      data: {},
      body,
      warning: {
        file,
        message: `front matter is not valid YAML${line ? ` (line ${line + 1})` : ''}: ${firstLine(error.message)}`,
      },
    }
  }
  let value: unknown
  try {
    value = doc.toJS({ maxAliasCount: 50 })
  } catch (error) {
    // Past maxAliasCount (a stranger's alias bomb) the yaml package throws: one warning, not a failed boot.
    return {
      data: {},
      body,
      warning: { file, message: `front matter is not valid YAML: ${firstLine((error as Error).message)}` },
    }
  }
  if (value === null || value === undefined) return { data: {}, body }
  if (typeof value !== 'object' || Array.isArray(value))
    return { data: {}, body, warning: { file, message: 'front matter is not a mapping of keys to values' } }
  // A plain object with no prototype: a key named `__proto__` stays a key.
  const data: Record<string, unknown> = Object.create(null)
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) data[k] = v
  return { data, body }
}

/** A string field; anything else is a warning and counts as absent. Numbers and booleans are written back as text. */
export function stringField(
  data: Readonly<Record<string, unknown>>,
  key: string,
  file: string,
  warnings: KnowHowWarning[],
): string | undefined {
  const value = data[key]
  if (value === undefined || value === null) return undefined
  if (typeof value === 'string') return value.trim() || undefined
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  warnings.push({ file, key, message: `expected text, got ${describe(value)}; ignored` })
  return undefined
}

/** A boolean field; `"true"`/`"false"` text is read as Claude Code reads it. */
export function booleanField(
  data: Readonly<Record<string, unknown>>,
  key: string,
  file: string,
  warnings: KnowHowWarning[],
): boolean | undefined {
  const value = data[key]
  if (value === undefined || value === null) return undefined
  if (typeof value === 'boolean') return value
  if (value === 'true' || value === 'false') return value === 'true'
  warnings.push({ file, key, message: `expected true or false, got ${describe(value)}; ignored` })
  return undefined
}

/**
 * `allowed-tools`: a YAML list, or one string of patterns separated by commas or spaces
 * (`Bash(git add:*), Read` and `Bash(git:*) Read` both occur) — never split inside parentheses.
 */
export function toolListField(
  data: Readonly<Record<string, unknown>>,
  key: string,
  file: string,
  warnings: KnowHowWarning[],
): string[] {
  const value = data[key]
  if (value === undefined || value === null) return []
  if (Array.isArray(value)) {
    const out: string[] = []
    for (const item of value) {
      if (typeof item === 'string' && item.trim()) out.push(...splitToolPatterns(item))
      else
        warnings.push({
          file,
          key,
          message: `expected a list of tool names, got ${describe(item)} in it; ignored`,
        })
    }
    return out
  }
  if (typeof value === 'string') return splitToolPatterns(value)
  warnings.push({ file, key, message: `expected a list of tool names, got ${describe(value)}; ignored` })
  return []
}

export function splitToolPatterns(text: string): string[] {
  const out: string[] = []
  let depth = 0
  let current = ''
  for (const ch of text) {
    if (ch === '(') depth++
    else if (ch === ')' && depth > 0) depth--
    if (depth === 0 && (ch === ',' || /\s/.test(ch))) {
      if (current) out.push(current)
      current = ''
      continue
    }
    current += ch
  }
  if (current) out.push(current)
  return out
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'a list'
  if (value === null) return 'null'
  return typeof value === 'object' ? 'a mapping' : `${typeof value} ${JSON.stringify(value)}`
}

function firstLine(message: string): string {
  // The library's own position counts from the front matter's first line; ours (above) from the file's.
  return (message.split('\n')[0] ?? message).replace(/ at line \d+, column \d+:?$/, '')
}

function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
}
