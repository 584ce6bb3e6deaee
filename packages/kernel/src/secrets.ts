// The secrets registry (`ctx.secrets`): what must never reach a command a tool runs. Plugins declare
// the environment variables that hold a secret (a provider's key variable, the search key) and the
// files (tack's `.env`, a session store kept outside tack's home); a tool that runs commands (bash)
// reads the registry at call time, so it scrubs and hides what was declared whichever loaded first.
// Each declaration is an effect of the declaring plugin: disposing it withdraws the declaration.
// Mostly names and paths; a value is declared only where no variable holds it (an MCP server's literal
// `env`/`headers` value, docs/decisions/0265-mcp-secret-values.md) — kept in memory, never written out,
// and used only to redact it (`redactSecrets`).
import type { Context } from 'cordis'

export interface SecretDeclaration {
  /** Environment variables a command must not inherit. */
  readonly variables?: readonly string[]
  /** Absolute paths of files (or folders) a sandboxed command must not read. */
  readonly files?: readonly string[]
  /** Values to redact from what reaches a person, a log or the model (shorter than `MIN_SECRET_LENGTH`: ignored). */
  readonly values?: readonly string[]
}

/**
 * Values shorter than this are not redacted: replacing `on`, `1` or `true` everywhere in a transcript
 * would mangle it while protecting nothing a guess would not find (a real token is longer).
 */
export const MIN_SECRET_LENGTH = 8

/** A redactor (`secretRedactor`), and what a stream of text must hold back from it. */
export interface SecretRedactor {
  (text: string): string
  /**
   * The length of the longest end of `text` that begins a secret without completing it (0 when none):
   * a text streamed in parts (the model's deltas) holds that much back until the next part shows
   * whether a secret completes across the cut, which neither part alone would show.
   */
  openTail(text: string): number
}

/**
 * A function that replaces every one of `values` (of at least `MIN_SECRET_LENGTH` characters) by
 * `[redacted]` — the one redactor tack's output and the MCP client both use. Longest first, so a secret
 * that contains another is replaced whole. Made once for many texts (a tool result's every string).
 */
export function secretRedactor(values: Iterable<string>): SecretRedactor {
  const secrets = [...values].filter((v) => v.length >= MIN_SECRET_LENGTH)
  // A value holding `"`, `\`, a newline or another control character appears escaped in any JSON that
  // carries it (`--json` lines, exports, the web view's API): that form is redacted too. JSON text in
  // JSON escapes it twice — a tool call's arguments (`{"command":"pa\"ss"}`) in a `--json` or JSONL
  // export line — and a client that reads the line and then the arguments has the value: that form too.
  const once = secrets.map(escapedInJson)
  const twice = once.map(escapedInJson)
  const sorted = [...new Set([...secrets, ...once, ...twice])].sort((a, b) => b.length - a.length)
  const redact = (text: string) => {
    let out = text
    for (const v of sorted) if (out.includes(v)) out = out.split(v).join('[redacted]')
    return out
  }
  const openTail = (text: string) => {
    let longest = 0
    const last = text.charCodeAt(text.length - 1)
    for (const v of sorted)
      for (let n = Math.min(v.length - 1, text.length); n > longest; n--)
        // the last character first: most lengths fail there without a slice
        if (v.charCodeAt(n - 1) === last && text.endsWith(v.slice(0, n))) {
          longest = n
          break
        }
    return longest
  }
  return Object.assign(redact, { openTail })
}

/** How `value` stands inside a JSON string (no quotes around it). */
function escapedInJson(value: string): string {
  return JSON.stringify(value).slice(1, -1)
}

/** `text` with `values` redacted (`secretRedactor`). */
export function redactSecrets(text: string, values: Iterable<string>): string {
  return secretRedactor(values)(text)
}

export class SecretsRegistry {
  readonly #declarations = new Set<SecretDeclaration>()

  /** Adds `declaration`; returns its remover. Prefer `declareSecrets`, which ties it to a plugin. */
  add(declaration: SecretDeclaration): () => void {
    const own = Object.freeze({
      variables: Object.freeze([...(declaration.variables ?? [])]),
      files: Object.freeze([...(declaration.files ?? [])]),
      values: Object.freeze([...(declaration.values ?? [])]),
    })
    this.#declarations.add(own)
    return () => {
      this.#declarations.delete(own)
    }
  }

  /** Every declared variable name, once each. */
  variables(): string[] {
    return this.#union((d) => d.variables)
  }

  /** Every declared value, once each (never to be written anywhere: to redact with). */
  values(): string[] {
    return this.#union((d) => d.values)
  }

  /** Every declared file, once each. */
  files(): string[] {
    return this.#union((d) => d.files)
  }

  #union(pick: (d: SecretDeclaration) => readonly string[] | undefined): string[] {
    const all = new Set<string>()
    for (const declaration of this.#declarations) for (const item of pick(declaration) ?? []) all.add(item)
    return [...all]
  }
}

declare module 'cordis' {
  interface Context {
    secrets: SecretsRegistry
  }
}

const registries = new WeakMap<object, SecretsRegistry>()

/** Gives `root` its secrets registry (`ctx.secrets`). Called by `@tack/kernel`'s `Context`; idempotent. */
export function installSecretsRegistry(root: Context): void {
  if (registries.has(root)) return
  const registry = new SecretsRegistry()
  registries.set(root, registry)
  // A plain property on the root: every plugin context inherits it, and nothing needs to inject it.
  Object.defineProperty(root, 'secrets', { value: registry, enumerable: false })
}

/** Declares secrets for as long as `ctx`'s plugin is loaded. */
export function declareSecrets(ctx: Context, declaration: SecretDeclaration): void {
  ctx.effect(() => secretsOf(ctx).add(declaration), 'secrets')
}

/** `ctx`'s secrets registry; a context not created by `@tack/kernel`'s `Context` has none. */
export function secretsOf(ctx: Context): SecretsRegistry {
  const registry = registries.get(ctx.root)
  if (!registry)
    throw new Error("no secrets registry: create the root context with @tack/kernel's Context, not cordis's")
  return registry
}
