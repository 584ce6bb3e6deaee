// The source scan run before a mod is imported (65-mod-host.md requirement 4; claude-code-mods.md §1):
// the entry and its relative imports are read as text for `$.<noun>.<method>` uses, `on("<event>"`
// literals, `next.to(` and `$.env.get(` arguments. Problems are collected, not thrown, so
// `tack mods check` can name everything a third-party mod is missing at once.
import { existsSync, readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { eventList, nounList, SUPPORTED_NOUNS } from './capabilities.ts'
import { selectEvents } from './patterns.ts'

export interface ScanResult {
  /** `on()` pattern literals found. */
  readonly events: string[]
  /** `noun.method` calls found on `$`. */
  readonly calls: string[]
  /** `$.env.get` names (literals). */
  readonly env: string[]
  /** Files scanned (the entry first). */
  readonly files: string[]
  /** Load-failing problems, each a full sentence after `mod "<name>": `. */
  readonly problems: string[]
  /** The entry's text exports `register` (read, not run: `tack mods check` imports nothing). */
  readonly exportsRegister: boolean
}

/** `export function register`, `export const register =`, `export { register }`. */
const REGISTER_EXPORT =
  /\bexport\s+(?:async\s+)?(?:function\s+register\b|(?:const|let|var)\s+register\b)|\bexport\s*\{[^}]*\bregister\b[^}]*\}/

const IMPORT_RE = /(?:\bfrom\s*|\bimport\s*)(['"])(\.{1,2}\/[^'"]+)\1/g
/** A static import of anything but a relative file (`node:fs`, a package). `claude-code` is types only. */
const BARE_IMPORT_RE = /(?:\bfrom\s*|^\s*import\s*)(['"])(?!\.{1,2}\/)([^'"]+)\1/gm
const REQUIRE_RE = /\brequire\s*\(/
const DYNAMIC_IMPORT_RE = /\bimport\s*\(/
const CALL_RE = /\$\.([A-Za-z_$][\w$]*)\.([A-Za-z_$][\w$]*)/g
const ON_RE = /\bon\(\s*(['"`])([^'"`]*)\1/g
const ENV_RE = /\$\.env\.get\(\s*([^,)]*)/g
const LITERAL_RE = /^(['"`])([^'"`$]*)\1$/

function relativeImports(file: string, text: string): string[] {
  const out: string[] = []
  for (const m of text.matchAll(IMPORT_RE)) {
    const target = resolve(dirname(file), m[2])
    if (existsSync(target)) out.push(target)
  }
  return out
}

export function scanMod(entry: string): ScanResult {
  const files: string[] = []
  const queue = [resolve(entry)]
  const events = new Set<string>()
  const calls = new Set<string>()
  const env = new Set<string>()
  const problems: string[] = []
  let exportsRegister = false
  while (queue.length) {
    const file = queue.shift() as string
    if (files.includes(file)) continue
    files.push(file)
    const text = readFileSync(file, 'utf8')
    if (files.length === 1) exportsRegister = REGISTER_EXPORT.test(text)
    for (const m of text.matchAll(CALL_RE)) calls.add(`${m[1]}.${m[2]}`)
    for (const m of text.matchAll(ON_RE)) events.add(m[2])
    for (const m of text.matchAll(ENV_RE)) {
      const literal = LITERAL_RE.exec(m[1].trim())
      if (literal) env.add(literal[2])
      else problems.push(`$.env.get(${m[1].trim()}): the name must be a string literal`)
    }
    // Claude Code refuses a module that reaches Node (claude-code-mods.md §1: no Node, no require, no
    // import()); so does tack, so a mod that loads here also loads there. Not a sandbox: see the README.
    for (const m of text.matchAll(BARE_IMPORT_RE))
      if (m[2] !== 'claude-code')
        problems.push(
          `imports '${m[2]}': a mod may import only its own relative files (no Node, no packages)`,
        )
    if (REQUIRE_RE.test(text)) problems.push('calls require(): a mod gets no CommonJS require')
    if (DYNAMIC_IMPORT_RE.test(text)) problems.push('calls import(): a mod may not load modules at run time')
    if (/\bnext\.to\(/.test(text))
      problems.push('next.to() is not available in tack (tiers are not modelled)')
    queue.push(...relativeImports(file, text))
  }
  const missingNouns = new Set<string>()
  for (const call of calls) {
    const noun = call.split('.')[0]
    if (!Object.hasOwn(SUPPORTED_NOUNS, noun)) missingNouns.add(noun)
  }
  for (const noun of missingNouns)
    problems.push(`$.${noun} is not available in tack; supported nouns: ${nounList()}`)
  for (const pattern of events)
    if (selectEvents(pattern).length === 0)
      problems.push(`on("${pattern}"): tack raises no such event; supported events: ${eventList()}`)
  return { events: [...events], calls: [...calls], env: [...env], files, problems, exportsRegister }
}
