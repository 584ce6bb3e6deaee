// The first line of the screen: where tack works and the keys a newcomer needs —
//   tack · ~/src/app · / commands · Esc interrupts · Ctrl-D exits
// The folder is shortened with `~` and cut from its start when the line is too long.
import { truncateToWidth, visibleWidth } from '@mariozechner/pi-tui'
import { escapeControls } from '../format.ts'
import type { Theme } from '../theme.ts'

export function renderHeader(cwd: string, home: string | undefined, theme: Theme, width: number): string[] {
  const sep = ` ${theme.glyphs.separator} `
  const path = home && (cwd === home || cwd.startsWith(`${home}/`)) ? `~${cwd.slice(home.length)}` : cwd
  const folder = escapeControls(path) // a folder's name is whatever a cloned repository chose
  const keys = `${sep}/ commands${sep}Esc interrupts${sep}Ctrl-D exits`
  const room = width - visibleWidth(`tack${sep}`) - visibleWidth(keys)
  const shown = visibleWidth(folder) <= room ? folder : `…${folder.slice(-(Math.max(room, 2) - 1))}`
  return [truncateToWidth(`${theme.bold('tack')}${theme.dim(`${sep}${shown}${keys}`)}`, width)]
}
