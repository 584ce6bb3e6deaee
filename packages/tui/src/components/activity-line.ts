// One line under the prompt box saying what the agent is doing and which keys act on it:
//   ⠋ working 12.3s · Esc to interrupt        while a turn runs
//   Press Ctrl-C again to exit                 after a first Ctrl-C
// and nothing while idle, so an idle screen is quiet.
import { truncateToWidth } from '@mariozechner/pi-tui'
import { formatDuration } from '../format.ts'
import type { Theme } from '../theme.ts'

const UNICODE_SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏']
const ASCII_SPINNER = ['-', '\\', '|', '/']

export const EXIT_HINT = 'Press Ctrl-C again to exit'

export interface Activity {
  /** When the running turn started (epoch ms); undefined while idle. */
  runningSince: number | undefined
  /** A line that replaces the activity for a moment (the Ctrl-C hint). */
  hint: string | undefined
}

export function renderActivity(activity: Activity, theme: Theme, width: number, now = Date.now()): string[] {
  if (activity.hint) return [truncateToWidth(theme.warning(activity.hint), width)]
  if (activity.runningSince === undefined) return []
  const frames = theme.unicode ? UNICODE_SPINNER : ASCII_SPINNER
  const frame = frames[Math.floor(now / 100) % frames.length]
  const elapsed = formatDuration(now - activity.runningSince)
  const sep = theme.glyphs.separator
  return [
    truncateToWidth(
      `${theme.accent(frame)} ${theme.dim(`working ${elapsed} ${sep} Esc to interrupt`)}`,
      width,
    ),
  ]
}
