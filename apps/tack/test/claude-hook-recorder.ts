// A Claude Code hook in a test box's ~/.claude/settings.json that saves the input it is given, as a user
// writes one (bash, `cat`); the tests read the file to see what Claude Code's hook would have seen.
import { chmod, mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Sandbox } from './helpers.ts'

export interface RecorderOptions {
  /** The hook's exit code (2 blocks where the event can), with this line on stderr. */
  readonly exit?: { readonly code: number; readonly stderr?: string }
  /** More hooks of other events, as settings.json writes them (a Stop hook, say). */
  readonly more?: Record<string, unknown[]>
}

/** Installs the hook for `event` calls matching `matcher`; returns the file its last input is saved in. */
export async function recordClaudeHook(
  box: Sandbox,
  event: string,
  matcher: string,
  options: RecorderOptions = {},
): Promise<string> {
  const seen = join(box.root, `${event}.json`)
  const hook = join(box.root, `record-${event}.sh`)
  const { exit } = options
  const tail = exit ? `${exit.stderr ? `echo '${exit.stderr}' >&2\n` : ''}exit ${exit.code}\n` : ''
  await writeFile(hook, `#!/usr/bin/env bash\ncat > '${seen}'\n${tail}`)
  await chmod(hook, 0o755)
  await mkdir(join(box.home, '.claude'), { recursive: true })
  await writeFile(
    join(box.home, '.claude', 'settings.json'),
    JSON.stringify({
      hooks: { [event]: [{ matcher, hooks: [{ type: 'command', command: hook }] }], ...options.more },
    }),
  )
  return seen
}
