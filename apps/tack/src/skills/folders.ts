// Where skills and prompt commands are looked for (85-skills-and-commands.md K2, C1): tack's own folders
// and the ones Claude Code, the Agent Skills convention (`.agents/`) and Codex already use, the user's
// before the workspace's. A folder that is both (a session started in the home folder) is kept once, as
// the user's. `plugins.skills.paths` adds folders of the user's (an untrusted project config cannot set it).
import { realpathSync } from 'node:fs'
import { homedir } from 'node:os'
import { join, resolve } from 'node:path'
import type { KnowHowFolder } from '@tack/skills'

export interface FolderOptions {
  readonly home: string
  readonly cwd: string
  readonly env: NodeJS.ProcessEnv
  readonly extraPaths?: readonly string[]
}

export function knowHowFolders(o: FolderOptions): KnowHowFolder[] {
  const userHome = o.env.HOME || homedir()
  const claude = o.env.CLAUDE_CONFIG_DIR || join(userHome, '.claude')
  const codex = o.env.CODEX_HOME || join(userHome, '.codex')
  const user = (dir: string, kind: KnowHowFolder['kind'], label: string): KnowHowFolder => ({
    dir,
    kind,
    scope: 'user',
    label,
  })
  const project = (rel: string, kind: KnowHowFolder['kind']): KnowHowFolder => ({
    dir: join(o.cwd, rel),
    kind,
    scope: 'project',
    label: rel,
  })
  const folders = [
    user(join(o.home, 'skills'), 'skill', '$TACK_HOME/skills'),
    user(
      join(claude, 'skills'),
      'skill',
      o.env.CLAUDE_CONFIG_DIR ? '$CLAUDE_CONFIG_DIR/skills' : '~/.claude/skills',
    ),
    user(join(userHome, '.agents', 'skills'), 'skill', '~/.agents/skills'),
    user(join(codex, 'skills'), 'skill', o.env.CODEX_HOME ? '$CODEX_HOME/skills' : '~/.codex/skills'),
    ...(o.extraPaths ?? []).map((p) => ({ ...user(resolve(o.cwd, p), 'skill', p), configured: true })),
    user(join(o.home, 'commands'), 'command', '$TACK_HOME/commands'),
    user(
      join(claude, 'commands'),
      'command',
      o.env.CLAUDE_CONFIG_DIR ? '$CLAUDE_CONFIG_DIR/commands' : '~/.claude/commands',
    ),
    user(join(codex, 'prompts'), 'command', o.env.CODEX_HOME ? '$CODEX_HOME/prompts' : '~/.codex/prompts'),
    project('.tack/skills', 'skill'),
    project('.claude/skills', 'skill'),
    project('.agents/skills', 'skill'),
    project('.codex/skills', 'skill'),
    project('.tack/commands', 'command'),
    project('.claude/commands', 'command'),
  ]
  const seen = new Set<string>()
  return folders.filter((f) => {
    const key = `${f.kind}\u0000${real(f.dir)}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

function real(dir: string): string {
  try {
    return realpathSync(dir)
  } catch {
    return dir
  }
}
