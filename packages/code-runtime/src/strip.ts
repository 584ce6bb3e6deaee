// TypeScript → JavaScript for the sandbox (TL-30): types are erased in strip mode, positions kept, so
// an error's line number points at the model's own line. amaro is the swc-based stripper Node itself
// ships for `--experimental-strip-types`, used as a library: the same grammar and the same refusal of
// syntax that needs transformation (enums, namespaces, parameter properties), without
// `module.stripTypeScriptTypes`'s ExperimentalWarning on stderr (docs/decisions/0080-code-runtime.md).
import { createRequire } from 'node:module'

type Amaro = typeof import('amaro')
let amaro: Amaro | undefined

/** amaro loads swc's WebAssembly when imported: only a process that runs a program pays for it. */
function stripper(): Amaro {
  amaro ??= createRequire(import.meta.url)('amaro') as Amaro
  return amaro
}

export type Stripped =
  | { readonly ok: true; readonly js: string }
  | { readonly ok: false; readonly message: string }

/**
 * Wraps the program as the body of an async arrow function handed to `runner` (so top-level `await`
 * and `return` work) and strips its types. The wrapper goes first and on its own line: the program's
 * line N is the output's line N + 1.
 */
export function stripProgram(code: string, runner: string): Stripped {
  const wrapped = `${runner}(async () => {\n${code}\n})`
  try {
    const out = stripper().transformSync(wrapped, { mode: 'strip-only', filename: 'program.ts' })
    return { ok: true, js: out.code }
  } catch (error) {
    return { ok: false, message: compileMessage(error) }
  }
}

/** swc throws a plain object `{code, message, startLine, startColumn, …}`, not an Error. */
function compileMessage(error: unknown): string {
  if (typeof error === 'object' && error !== null && 'message' in error) {
    const { message, startLine, startColumn } = error as {
      message: unknown
      startLine?: unknown
      startColumn?: unknown
    }
    // Line 1 of the stripped text is the wrapper, so the program's line is one less.
    const where =
      typeof startLine === 'number' && typeof startColumn === 'number'
        ? ` (line ${Math.max(1, startLine - 1)}, column ${startColumn + 1})`
        : ''
    return `${String(message)}${where}`
  }
  return String(error)
}
