// Protected files (issue 9 item 2, 0012-protected-files.md): tack's and the hook bridges' own control
// files. A file planted there runs or takes effect on the next start — a Claude or Codex hook, a
// project config, a plugin — so the agent may write them only with an explicit approval, in every
// mode but yolo:
//
//   .tack/**                 tack's project folder (config, plugins, trust)
//   .claude/settings*.json   Claude Code settings (hooks, permissions, env)
//   .claude/hooks/**         scripts those settings run
//   .codex/hooks.json        Codex hooks
//   $TACK_HOME/**            tack's own folder (config, .env, sessions, transcripts)
//   .git/**                  the repository's git folder: `core.fsmonitor`, `core.pager`, an alias or a
//                            hook in it runs a program on the next `git status` or `git commit`
//   <gitdir>/**              the folder a workspace's `.git` file points to (a worktree, a submodule)
//
// The folders themselves (`.tack`, `.claude`, `.claude/hooks`, `.codex`, `.git`) are protected too: replacing
// one replaces what it holds. The patterns match at any depth — a sub-folder becomes the workspace
// when tack starts there, and `~/.claude/settings.json` is Claude Code's user file — and without
// regard to case (case-insensitive file systems open `.CLAUDE/Settings.json` as the same file).
// Both the lexical path (`..` resolved) and the real path (symlinks followed, nearest existing parent
// for a new file) are checked, so neither `..`, a different case, nor a symlink to `.claude` gets by.
// Only declared paths of write-access tools are checked: bash cannot be path-checked (a command can
// name a file in too many ways); the OS sandbox makes these paths read-only for it.
import { readFile } from 'node:fs/promises'
import { join, resolve, sep } from 'node:path'
import { resolveTackHome } from '@tack/kernel'
import { isInside, realPathOf } from '@tack/tools'
import type { CallFacts, PathFact } from './facts.ts'

/** The first path of the call that is a protected file, with what it is; undefined when none is. */
export async function protectedPathOf(
  facts: CallFacts,
  home: string = resolveTackHome(),
): Promise<{ readonly path: PathFact; readonly what: string } | undefined> {
  if (facts.access !== 'write' || facts.paths.length === 0) return undefined
  const homes = [home, await realPathOf(home).catch(() => home)]
  const gitDirs = await gitDirsOf(facts.root.lexical)
  for (const path of facts.paths) {
    for (const candidate of [path.absolute, path.real]) {
      const what = controlFileKind(candidate, homes, gitDirs)
      if (what) return { path, what }
    }
  }
  return undefined
}

/**
 * The git folder a `.git` file at the workspace root names (`gitdir: …`: a linked worktree, a submodule,
 * `--separate-git-dir`), as written and real. A `.git` folder needs nothing here: its name protects it.
 */
async function gitDirsOf(root: string): Promise<string[]> {
  const text = await readFile(join(root, '.git'), 'utf8').catch(() => '') // a folder or none: ''
  const named = /^gitdir:[ \t]*(.+?)[ \t]*$/m.exec(text)?.[1]
  if (!named) return []
  const dir = resolve(root, named)
  return [dir, await realPathOf(dir).catch(() => dir)]
}

// Its config and hooks name programs git runs (core.fsmonitor on the next `git status`).
const GIT_FOLDER = "the repository's git folder (.git)"

/** What `absolute` is if it is a control file (or holds them), compared without regard to case. */
export function controlFileKind(
  absolute: string,
  homes: readonly string[],
  gitDirs: readonly string[] = [],
): string | undefined {
  const path = absolute.toLowerCase()
  if (homes.some((home) => isInside(home.toLowerCase(), path))) return "tack's own folder ($TACK_HOME)"
  if (gitDirs.some((dir) => isInside(dir.toLowerCase(), path))) return GIT_FOLDER
  const parts = path.split(sep).filter((part) => part !== '')
  for (let i = 0; i < parts.length; i++) {
    const rest = parts.slice(i + 1)
    switch (parts[i]) {
      case '.tack':
        return "tack's project folder (.tack)"
      case '.git':
        return GIT_FOLDER
      case '.claude':
        if (rest.length === 0) return 'the Claude Code settings folder (.claude)'
        if (rest[0] === 'hooks') return 'a Claude Code hook (.claude/hooks)'
        if (rest.length === 1 && /^settings.*\.json$/.test(rest[0])) return 'Claude Code settings'
        break
      case '.codex':
        if (rest.length === 0) return 'the Codex folder (.codex)'
        if (rest.length === 1 && rest[0] === 'hooks.json') return 'Codex hooks (.codex/hooks.json)'
        break
    }
  }
  return undefined
}
