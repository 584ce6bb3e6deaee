// Which hooks.json files the bridge reads (40-hooks.md C1), read once at load: with `discover`, the
// user layer `$CODEX_HOME/hooks.json` and the project layer `<project dir>/.codex/hooks.json`, as Codex
// discovers them, then each configured `sources` path (a relative one against the process cwd; tack's
// config files give absolute ones). A file named twice (e.g. through a symlink) is read once. A
// discovered file that does not exist is simply absent; a configured one that does not exist, and any unreadable or malformed file, is skipped with
// a warning naming the path and the problem — boot goes on.
import { readFile, realpath } from 'node:fs/promises'
import { homedir } from 'node:os'
import { join, resolve } from 'node:path'
import { type CodexHookEntry, parseHooksFile } from './hooks-file.ts'

export type SourceKind = 'user' | 'project' | 'config'

export interface HookSource {
  readonly path: string
  readonly kind: SourceKind
}

export interface DiscoveryOptions {
  readonly sources: readonly string[]
  readonly discover: boolean
  /** Codex's home folder (resolved). */
  readonly codexHome: string
  /** The folder whose `.codex/hooks.json` is the project layer (resolved). */
  readonly projectDir: string
}

/** A hooks file that exists but could not be used; none of its hooks run. */
export interface SourceProblem {
  readonly path: string
  readonly problem: string
}

export interface Discovered {
  /** The files read, in order. */
  readonly sources: readonly HookSource[]
  readonly entries: readonly CodexHookEntry[]
  readonly warnings: readonly string[]
  /** Files skipped as a whole (unreadable, not JSON, a shape Codex rejects), for `tack hooks list`. */
  readonly problems: readonly SourceProblem[]
}

const nonEmpty = (v: string | undefined) => (v && v.trim() !== '' ? v : undefined)

/** `$CODEX_HOME`, else `~/.codex`, as Codex resolves it. */
export function defaultCodexHome(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(nonEmpty(env.CODEX_HOME) ?? join(homedir(), '.codex'))
}

/** The candidate files in reading order, before reading. */
export function candidateSources(opts: DiscoveryOptions): HookSource[] {
  const out: HookSource[] = []
  if (opts.discover) {
    out.push({ path: join(opts.codexHome, 'hooks.json'), kind: 'user' })
    out.push({ path: join(opts.projectDir, '.codex', 'hooks.json'), kind: 'project' })
  }
  for (const s of opts.sources) out.push({ path: resolve(s), kind: 'config' })
  return out
}

export async function discoverHooks(opts: DiscoveryOptions): Promise<Discovered> {
  const sources: HookSource[] = []
  const entries: CodexHookEntry[] = []
  const warnings: string[] = []
  const problems: SourceProblem[] = []
  const skip = (path: string, problem: string) => {
    problems.push({ path, problem })
    warnings.push(`${path}: ${problem} — its hooks are not run until it is fixed`)
  }
  const seen = new Set<string>()
  for (const candidate of candidateSources(opts)) {
    let real: string
    try {
      real = await realpath(candidate.path)
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      if (code === 'ENOENT' && candidate.kind !== 'config') continue
      skip(candidate.path, (error as Error).message)
      continue
    }
    if (seen.has(real)) continue
    seen.add(real)
    let text: string
    try {
      text = await readFile(real, 'utf8')
    } catch (error) {
      skip(real, (error as Error).message)
      continue
    }
    try {
      const parsed = parseHooksFile(real, text)
      sources.push({ path: real, kind: candidate.kind })
      entries.push(...parsed.entries)
      warnings.push(...parsed.warnings)
    } catch (error) {
      skip(real, (error as Error).message)
    }
  }
  return { sources, entries, warnings, problems }
}
