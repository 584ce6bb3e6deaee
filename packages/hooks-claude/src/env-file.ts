// `CLAUDE_ENV_FILE` (issue 11.4; protocols.md §A.2): SessionStart hooks get the path of a per-session
// file and append `export X=…` lines to it; every later Bash call of that session sources the file
// first, so the variables reach the commands the model runs, as in Claude Code. The source line is
// added to the command tack's bash tool runs and taken off again wherever a hook sees `tool_input`.
import { statSync } from 'node:fs'
import { join } from 'node:path'
import type { Agent } from '@tack/agent'
import { privateFolder, writePrivateFile } from '@tack/kernel/private-files'

const SAFE = /[^A-Za-z0-9._-]/g

/** A single-quoted shell word. */
const quoted = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`

export class EnvFiles {
  readonly #dir: string

  constructor(dir: string) {
    this.#dir = dir
  }

  /** The session's file path (not created). */
  pathOf(root: Agent): string {
    return join(this.#dir, `${root.session.id.replace(SAFE, '_')}.sh`)
  }

  /** Creates the session's file (empty when new) and returns its path, for a SessionStart run. */
  prepare(root: Agent): string {
    const path = this.pathOf(root)
    try {
      // Hooks put variables here, secrets among them: owner-only (docs/decisions/0145-private-files.md).
      privateFolder(this.#dir)
      writePrivateFile(path, '', { append: true })
    } catch {
      // The hook finds it unwritable and says so; the session goes on.
    }
    return path
  }

  /** The line that sources the session's file, when it holds anything; undefined otherwise. */
  sourceLine(root: Agent): string | undefined {
    const path = this.pathOf(root)
    try {
      if (statSync(path).size === 0) return undefined
    } catch {
      return undefined
    }
    return `. ${quoted(path)}\n`
  }
}

/** `command` without a leading source line added by `EnvFiles.sourceLine`. */
export function withoutSourceLine(command: string, line: string | undefined): string {
  return line && command.startsWith(line) ? command.slice(line.length) : command
}
