// The bytes a terminal sends for the keys a test presses (xterm's normal-mode sequences, which is what
// node-pty's default TERM=xterm-256color program expects).
export const KEYS = {
  enter: '\r',
  esc: '\x1b',
  tab: '\t',
  'shift-tab': '\x1b[Z',
  backspace: '\x7f',
  up: '\x1b[A',
  down: '\x1b[B',
  right: '\x1b[C',
  left: '\x1b[D',
  home: '\x1b[H',
  end: '\x1b[F',
  'ctrl-a': '\x01',
  'ctrl-c': '\x03',
  'ctrl-d': '\x04',
  'ctrl-e': '\x05',
  'ctrl-j': '\n',
  'ctrl-k': '\x0b',
  'ctrl-l': '\x0c',
  'ctrl-u': '\x15',
  /** Alt+Enter: a newline in a multi-line prompt box in most TUIs. */
  'alt-enter': '\x1b\r',
} as const

export type KeyName = keyof typeof KEYS
